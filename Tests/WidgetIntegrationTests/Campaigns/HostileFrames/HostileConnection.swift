import Foundation
import Glibc
@testable import WidgetIntegrationSupport

/// One connection of the hostile campaign. The caller's thread writes frames; a thread of the
/// connection's own reads and checks the answers as they come. Both at once, because a frame
/// and its answer may each be larger than a socket buffer: a client that only wrote, or only
/// read, could wait on the daemon while the daemon waits on it.
final class HostileConnection: @unchecked Sendable {
    /// How long the daemon may stay silent while answers are owed before the campaign calls it
    /// a hang. A detector, not a timing check: a healthy daemon answers in milliseconds.
    static let hangAfter: TimeInterval = 60
    /// Every code docs/protocol.md lists, -32013 (permission denied) and -32014 (a limit, such
    /// as a pushed entry over `max-entry-bytes`) included.
    static let documentedCodes: Set<Int> = Set([-32700, -32600, -32601, -32602] + Array((-32014)...(-32001)))

    private struct Owed {
        var id: HostileFrame.CleanID?
        var codes: Set<Int>?
        /// The line-too-long answer: the daemon closes the connection after it.
        var closes: Bool
        /// Whether the answer is a batch's array: never, maybe, or always.
        var batch = BatchRule.never
        /// The start of the line that asked, so a failure names the request and not only the answer.
        var asked: [UInt8] = []
    }

    private enum BatchRule { case never, maybe, always }

    private let fd: CInt
    private let condition = NSCondition()
    // Guarded by `condition`.
    private var owed: [Owed] = []
    private var nextOwed = 0
    private var stopReading = false
    private var readerDone = false
    private var writerClosed = false
    // The writer's counts and the reader's, merged once the reader is done.
    private var written = HostileTally()
    private var read = HostileTally()
    private let name: String

    init(path: String, name: String) throws {
        self.name = name
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        let result = UnixAddress.connect(fd, path)
        guard fd >= 0, result == 0 else { throw FixtureError("cannot connect to \(path): \(String(cString: strerror(errno)))") }
        written.connections = 1
        let thread = Thread { [self] in readAnswers() }
        thread.stackSize = 1 << 22
        thread.start()
    }

    deinit { hangUp() }

    private var closed = false

    /// Closes the socket now rather than whenever the last reference goes: a connection left
    /// open keeps its task in the daemon.
    func hangUp() {
        guard !closed else { return }
        closed = true
        close(fd)
    }

    // MARK: Writing

    /// Sends one frame and its newline, all at once or a byte per write (`drip`); false when
    /// the daemon has closed the connection.
    @discardableResult
    func send(_ frame: HostileFrame, drip: Bool = false) -> Bool {
        switch frame.expected {
        case .answer(let id, let codes):
            let asked = Array(frame.bytes.prefix(300))
            condition.withLock { owed.append(Owed(id: id, codes: codes, closes: false, asked: asked)) }
        case .batch:
            let asked = Array(frame.bytes.prefix(300))
            condition.withLock { owed.append(Owed(id: nil, codes: nil, closes: false, batch: .always, asked: asked)) }
        case .answerOrBatch(let codes):
            let asked = Array(frame.bytes.prefix(300))
            condition.withLock { owed.append(Owed(id: nil, codes: codes, closes: false, batch: .maybe, asked: asked)) }
        case .silence:
            written.silent += 1
        }
        written.framesSent += 1
        written.byCategory[frame.category.rawValue, default: 0] += 1
        let bytes = frame.bytes + [0x0A]
        guard drip else { return write(bytes) }
        for byte in bytes {
            guard write([byte]) else { return false }
            // Long enough for the daemon to read each byte on its own most of the time.
            usleep(50)
        }
        return true
    }

    /// Sends bytes that are not a whole frame (a cut-off line, an oversized one).
    @discardableResult
    func write(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let count = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if count < 0, errno == EINTR { continue }
            if count <= 0 { return false }
            offset += count
        }
        return true
    }

    /// The next answer must be the line-too-long error, and then the connection must end.
    func expectTooLong() {
        condition.withLock { owed.append(Owed(id: nil, codes: [-32006], closes: true)) }
    }

    /// The cut-off last line of a half-closed connection still counts as a request.
    func expectParseErrorForLastLine() {
        condition.withLock { owed.append(Owed(id: nil, codes: [-32700], closes: false)) }
    }

    func halfClose() {
        condition.withLock { writerClosed = true }
        shutdown(fd, Int32(SHUT_WR))
    }

    // MARK: Ending

    /// Waits for every answer owed so far; false when the reader ended first.
    @discardableResult
    func waitUntilAnswered() -> Bool {
        condition.withLock {
            while nextOwed < owed.count && !readerDone { condition.wait() }
            return nextOwed == owed.count
        }
    }

    /// Waits for the daemon to end the connection (after a half-close or a line too long), then
    /// checks that nothing owed is missing.
    func finish() -> HostileTally {
        condition.withLock {
            while !readerDone { condition.wait() }
        }
        return tally(checkingOwed: true)
    }

    /// Stops reading and closes, whatever is still owed: a client that goes away.
    func abandon(checkingOwed: Bool) -> HostileTally {
        condition.withLock {
            stopReading = true
            while !readerDone { condition.wait() }
        }
        if !checkingOwed {
            condition.withLock { written.abandoned += owed.count - nextOwed }
        }
        return tally(checkingOwed: checkingOwed)
    }

    private func tally(checkingOwed: Bool) -> HostileTally {
        condition.withLock {
            var total = written
            total.merge(read)
            if checkingOwed, nextOwed < owed.count {
                total.fail(
                    "\(name): \(owed.count - nextOwed) of \(owed.count) answers missing at the end of the connection; "
                        + "first missing: \(owed[nextOwed].id.map { "\($0)" } ?? "-") codes \(owed[nextOwed].codes.map { "\($0.sorted())" } ?? "any")")
            }
            return total
        }
    }

    // MARK: Reading

    private func readAnswers() {
        var pending: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var lastProgress = Date()
        // A client that stops reading may stop mid-answer: that partial line is its doing.
        var stoppedHere = false
        reading: while true {
            var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&entry, 1, 100)
            if ready == 0 {
                let (stop, waiting) = condition.withLock { (stopReading, nextOwed < owed.count || writerClosed) }
                if stop {
                    stoppedHere = true
                    break
                }
                if waiting, Date().timeIntervalSince(lastProgress) > Self.hangAfter {
                    read.fail("\(name): no answer and no end for \(Int(Self.hangAfter)) s while answers were owed (hang)")
                    break
                }
                continue
            }
            if ready < 0 {
                if errno == EINTR { continue }
                break
            }
            let count = recv(fd, &buffer, buffer.count, 0)
            if count < 0, errno == EINTR { continue }
            // The end, or ECONNRESET when the daemon closed with our bytes unread (line too long).
            if count <= 0 { break }
            lastProgress = Date()
            pending.append(contentsOf: buffer[0..<count])
            var start = 0
            while let newline = pending[start...].firstIndex(of: 0x0A) {
                check(Array(pending[start..<newline]))
                start = newline + 1
            }
            pending.removeFirst(start)
        }
        if !pending.isEmpty, !stoppedHere {
            read.fail("\(name): the daemon's last line has no newline: \(Self.preview(pending))")
        }
        condition.withLock {
            readerDone = true
            condition.broadcast()
        }
    }

    private func check(_ line: [UInt8]) {
        let parsed = try? JSONSerialization.jsonObject(with: Data(line))
        if let members = parsed as? [Any] {
            checkBatch(members, line)
            return
        }
        guard let answer = parsed as? [String: Any] else {
            read.fail("\(name): an answer is not a JSON object: \(Self.preview(line))")
            return
        }
        if answer["id"] == nil, answer["method"] as? String == "event" {
            read.events += 1
            return
        }
        read.answers += 1
        let expected: Owed? = condition.withLock {
            defer { condition.broadcast() }
            guard nextOwed < owed.count else { return nil }
            if nextOwed > 0, owed[nextOwed - 1].closes { return nil }
            nextOwed += 1
            return owed[nextOwed - 1]
        }
        guard let expected else {
            read.fail("\(name): an answer nothing asked for (a notification answered, or one after the close): \(Self.preview(line))")
            return
        }
        func fail(_ text: String) {
            read.fail("\(name): " + text + (expected.asked.isEmpty ? "" : " (asked: \(Self.preview(expected.asked)))"))
        }
        guard expected.batch != .always else {
            fail("one answer where a batch's array was due: \(Self.preview(line))")
            return
        }
        guard answer["jsonrpc"] as? String == "2.0" else {
            fail("answer without \"jsonrpc\":\"2.0\": \(Self.preview(line))")
            return
        }
        let error = answer["error"] as? [String: Any]
        guard (answer["result"] != nil) != (error != nil), answer.keys.contains("id") else {
            fail("an answer needs an id and exactly one of result and error: \(Self.preview(line))")
            return
        }
        if let error {
            guard let code = error["code"] as? Int, error["message"] is String else {
                fail("error without an integer code and a message: \(Self.preview(line))")
                return
            }
            read.errorsByCode[code, default: 0] += 1
            if let codes = expected.codes, !codes.contains(code) {
                fail("error \(code), expected one of \(codes.sorted()): \(Self.preview(line))")
            } else if !Self.documentedCodes.contains(code) {
                fail("undocumented error code \(code): \(Self.preview(line))")
            }
        } else if let codes = expected.codes, !codes.isEmpty {
            fail("a result where an error \(codes.sorted()) was due: \(Self.preview(line))")
        }
        if let id = expected.id, !(answer["id"] is NSNull) {
            let matches: Bool
            switch id {
            case .number(let number): matches = (answer["id"] as? NSNumber)?.intValue == number
            case .string(let text): matches = answer["id"] as? String == text
            }
            if !matches { fail("answer out of order: expected id \(id), got \(Self.preview(line))") }
        } else if expected.id == nil, expected.closes || expected.codes == [-32700], !(answer["id"] is NSNull) {
            fail("a line that could not be read answered with an id: \(Self.preview(line))")
        }
    }

    /// A batch's answer: an array of answers, each with "jsonrpc":"2.0", an id and exactly one
    /// of result and error (with a documented code).
    private func checkBatch(_ members: [Any], _ line: [UInt8]) {
        read.answers += 1
        let expected: Owed? = condition.withLock {
            defer { condition.broadcast() }
            guard nextOwed < owed.count else { return nil }
            nextOwed += 1
            return owed[nextOwed - 1]
        }
        guard let expected, expected.batch != .never else {
            read.fail("\(name): a batch's array where none was due: \(Self.preview(line))")
            return
        }
        guard !members.isEmpty else {
            read.fail("\(name): an empty array answered: \(Self.preview(line))")
            return
        }
        for member in members {
            guard let answer = member as? [String: Any], answer["jsonrpc"] as? String == "2.0", answer.keys.contains("id"),
                (answer["result"] != nil) != (answer["error"] != nil)
            else {
                read.fail("\(name): a batch member is not an answer: \(Self.preview(line))")
                return
            }
            if let error = answer["error"] as? [String: Any] {
                let code = error["code"] as? Int ?? 0
                read.errorsByCode[code, default: 0] += 1
                if !Self.documentedCodes.contains(code) { read.fail("\(name): undocumented error code \(code): \(Self.preview(line))") }
            }
        }
    }

    static func preview(_ bytes: [UInt8]) -> String {
        let text = String(decoding: bytes.prefix(300), as: UTF8.self)
        return bytes.count > 300 ? text + "… (\(bytes.count) bytes)" : text
    }
}
