import Foundation

/// Runs lanes of hostile connections against one daemon at once. Each lane opens connections
/// one after another, each with a way of behaving, and sends its share of frames; a lane's
/// frames and behaviours come from its own generator, so they do not depend on how the lanes
/// interleave.
struct HostileCampaign {
    var socketPath: String
    var seed: UInt64
    var victim: String
    var lanes: Int
    var framesPerLane: Int
    /// The daemon's line limit (`ControlServer.maxLineBytes`).
    var lineLimit: Int

    enum Behaviour: CaseIterable {
        /// Frames pipelined, then a half-close: every answer still arrives, then the end.
        case halfClose
        /// A half-close in the middle of a frame: the cut-off line is answered too.
        case halfCloseMidFrame
        /// Some frames dripped a byte per write.
        case slow
        /// Answers read, then a partial frame and a full close.
        case closeMidFrame
        /// A burst of frames, then a close without reading the answers.
        case abandon
        /// Frames, maybe a line of exactly the limit, then a line over it: answered with
        /// -32006 and closed, whatever follows.
        case oversized
    }

    func run() -> HostileTally {
        let total = LockedTally()
        let group = DispatchGroup()
        for lane in 0..<lanes {
            group.enter()
            let thread = Thread { [self] in
                total.merge(runLane(lane))
                group.leave()
            }
            thread.stackSize = 1 << 22
            thread.start()
        }
        group.wait()
        return total.value
    }

    private func runLane(_ lane: Int) -> HostileTally {
        var generator = HostileFrameGenerator(seed: seed, lane: lane, victim: victim)
        var tally = HostileTally()
        var serial = 0
        while tally.framesSent < framesPerLane {
            serial += 1
            let roll = generator.int(0..<100)
            let behaviour: Behaviour =
                switch roll {
                case 0..<55: .halfClose
                case 55..<67: .halfCloseMidFrame
                case 67..<75: .slow
                case 75..<85: .closeMidFrame
                case 85..<92: .abandon
                default: .oversized
                }
            let name = "lane \(lane) connection \(serial) (\(behaviour))"
            do {
                let connection = try HostileConnection(path: socketPath, name: name)
                tally.merge(drive(connection, behaviour, &generator, remaining: framesPerLane - tally.framesSent))
                connection.hangUp()
            } catch {
                tally.fail("\(name): \(error)")
                return tally
            }
        }
        return tally
    }

    private func drive(
        _ connection: HostileConnection, _ behaviour: Behaviour, _ generator: inout HostileFrameGenerator, remaining: Int
    ) -> HostileTally {
        let count = min(remaining, behaviour == .slow ? generator.int(5..<40) : generator.int(1..<1500))
        for _ in 0..<count {
            let frame = generator.next()
            let drip = behaviour == .slow && frame.bytes.count < 400 && generator.chance(0.5)
            guard connection.send(frame, drip: drip) else {
                var tally = connection.abandon(checkingOwed: false)
                tally.fail("the daemon closed a connection on its own (\(behaviour))")
                return tally
            }
        }
        switch behaviour {
        case .halfClose, .slow:
            connection.halfClose()
            return connection.finish()
        case .halfCloseMidFrame:
            connection.write(cutOff(generator.next()))
            connection.expectParseErrorForLastLine()
            connection.halfClose()
            return connection.finish()
        case .closeMidFrame:
            connection.waitUntilAnswered()
            let tally = connection.abandon(checkingOwed: true)
            connection.write(cutOff(generator.next()))
            return tally
        case .abandon:
            return connection.abandon(checkingOwed: false)
        case .oversized:
            if generator.chance(0.3) { sendExactlyTheLimit(connection, &generator) }
            connection.expectTooLong()
            // No newline inside, so it is one line; sometimes a newline and more frames after it.
            let over = [UInt8](repeating: UInt8(ascii: generator.chance(0.5) ? "{" : "a"), count: lineLimit + generator.int(1..<5000))
            if connection.write(over), generator.chance(0.5) {
                // The daemon may already have closed; these must get no answer either way.
                _ = connection.write([0x0A] + generator.next().bytes + [0x0A])
            }
            return connection.finish()
        }
    }

    /// A line of exactly the limit (a `ping` padded with spaces) is not too long.
    private func sendExactlyTheLimit(_ connection: HostileConnection, _ generator: inout HostileFrameGenerator) {
        let number = 900_000_000 + generator.int(0..<99_999_999)
        let head = Array("{\"jsonrpc\":\"2.0\",\"id\":\(number),\"method\":\"ping\"".utf8)
        let bytes = head + [UInt8](repeating: 0x20, count: lineLimit - head.count - 1) + [UInt8(ascii: "}")]
        connection.send(HostileFrame(bytes: bytes, expected: .answer(id: .number(number), codes: []), category: .valid))
    }

    /// A prefix of an object that is not blank.
    private func cutOff(_ frame: HostileFrame) -> [UInt8] {
        let object = Array("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"".utf8) + frame.bytes
        return Array(object.prefix(max(1, object.count / 2)))
    }
}
