import Foundation
import Glibc
import Testing
@testable import WidgetTestSupport
@testable import WidgetIntegrationSupport

extension Integration {
    /// Clients that do not read, flood the slots, hold partial
    /// lines or loop huge batches, against the real widgetd. Each asserts a bound (memory
    /// growth, who still gets in, that other clients are answered, what is closed and
    /// logged), never a timing; the figures are printed for docs/reliability.md.
    @Suite struct HostileSocket {
        static let ping = #"{"jsonrpc":"2.0","method":"ping","id":1}"#

        static func start(_ fixture: DaemonFixture, limits: String = "", access: String = "") throws {
            try fixture.descriptor("test.pushed", exec: nil)
            let config = fixture.directory + "/widgetd.conf"
            try "[limits]\n\(limits)\n[access]\n\(access)\n".write(toFile: config, atomically: true, encoding: .utf8)
            try fixture.start(arguments: ["--config", config])
        }

        static func mib(_ kib: Int) -> String { String(format: "%.1f MiB", Double(kib) / 1024) }

        /// A client with a 4 KiB receive buffer sends batches of 20,000 `status` requests and
        /// never reads: the daemon stops reading it once its answers are not taken, so its
        /// peak memory hardly moves, and another client's pings go on being answered.
        @Test func aClientThatNeverReadsDoesNotGrowTheDaemon() throws {
            let fixture = try DaemonFixture()
            defer { fixture.stop() }
            try Self.start(fixture)
            let pid = try #require(fixture.pid)
            let pinger = try SocketPinger(path: fixture.socketPath)
            let warm = try RawConnection(path: fixture.socketPath)
            #expect(warm.request(Self.ping)?["result"] != nil)
            let base = ProcessStats.peakMemory(pid)

            let batch = SocketClients.statusBatch(20_000)
            let fd = try SocketClients.connect(fixture.socketPath, receiveBuffer: 4096)
            defer { close(fd) }
            SocketClients.setTimeout(fd, SO_SNDTIMEO, seconds: 2)
            // Up to 200 batches; the daemon that stops reading makes the sends time out, and
            // two in a row that take nothing end the attack. A daemon that grows past four
            // times the bound has failed already: no need to feed it the rest.
            var sentBatches = 0
            var sentBytes = 0
            var stalls = 0
            while sentBatches < 200, stalls < 2, ProcessStats.peakMemory(pid) - base < 64 * 1024 {
                let sent = SocketClients.send(fd, Array(batch[(sentBytes % batch.count)...]))
                sentBytes += sent
                sentBatches = sentBytes / batch.count
                stalls = sent == 0 ? stalls + 1 : 0
            }
            // The daemon still serves, with the non-reader connected and its batch held.
            for _ in 0..<50 { #expect(warm.request(Self.ping)?["result"] != nil, "a ping while the non-reader is connected") }
            let peak = ProcessStats.peakMemory(pid)
            let (latencies, failures) = pinger.stop()
            print(
                "hostile socket: a client that never reads, \(sentBatches) of 200 batches of 20,000 status taken "
                    + "(\(sentBytes / 1024) KiB): VmHWM \(Self.mib(base)) -> \(Self.mib(peak)) (+\(Self.mib(peak - base))); "
                    + "other client: \(SocketPinger.summary(latencies))")
            #expect(peak - base <= 16 * 1024, "VmHWM grew by \(Self.mib(peak - base))")
            #expect(failures.isEmpty, "\(failures.prefix(5))")
            #expect(!latencies.isEmpty)
        }

        /// Pipelined requests whose answers the peer does not take: past `max-unsent-bytes`
        /// the connection is closed, the close is logged with the key, and others go on.
        @Test func aConnectionPastMaxUnsentBytesIsClosedAndTheCloseNamesTheKey() throws {
            let fixture = try DaemonFixture()
            defer { fixture.stop() }
            try Self.start(fixture, limits: "max-unsent-bytes = 65536")
            // 300 instances make each `list` answer some 60 KB.
            let adds = (0..<300).map { #"{"jsonrpc":"2.0","method":"add","params":{"kind":"test.pushed","family":"systemSmall"},"id":\#($0)}"# }
            let setup = try RawConnection(path: fixture.socketPath)
            setup.send("[" + adds.joined(separator: ",") + "]\n")
            let added = try #require(setup.readLine())
            #expect(!added.contains("\"error\""), "\(added.prefix(300))")

            let fd = try SocketClients.connect(fixture.socketPath, receiveBuffer: 4096)
            defer { close(fd) }
            let lists = String(repeating: #"{"jsonrpc":"2.0","method":"list","id":1}"# + "\n", count: 32)
            #expect(SocketClients.send(fd, Array(lists.utf8)) == lists.utf8.count)
            try Poll.until("the close for max-unsent-bytes in the log") {
                fixture.log().contains("connection closed: max-unsent-bytes reached")
            }
            // What the socket took before the close still arrives, then the end.
            SocketClients.setTimeout(fd, SO_RCVTIMEO, seconds: 30)
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            var received = 0
            var lines = 0
            while true {
                let count = recv(fd, &buffer, buffer.count, 0)
                guard count > 0 else {
                    #expect(count == 0, "the connection ends (not a time-out): \(String(cString: strerror(errno)))")
                    break
                }
                received += count
                lines += buffer[0..<count].filter { $0 == 0x0A }.count
            }
            let line = fixture.log().split(separator: "\n").first { $0.contains("connection closed: max-unsent-bytes reached") } ?? ""
            #expect(line.contains("max=65536"), "\(line)")
            #expect(lines < 32, "the connection was closed before all 32 answers")
            #expect(try RawConnection(path: fixture.socketPath).request(Self.ping)?["result"] != nil)
            print("hostile socket: 32 pipelined list answers of ~60 KB not read, max-unsent-bytes = 65536: closed after \(lines) answers "
                + "(\(received / 1024) KiB taken); \(line)")
        }

        /// One host-group user opens 2,000 connections: it holds its share
        /// (`max-connections-per-uid`), every other one is refused naming that key, and root
        /// and a second host-group user still connect and are answered. Root only.
        @Test(.needs(AuthUsers.unavailable))
        func twoThousandConnectionsFromOneUIDLeaveRoomForRootAndTheHostGroup() throws {
            SocketFlood.raiseOpenFiles(to: 8192)
            let fixture = try DaemonFixture()
            let users = try AuthUsers.open(for: fixture)
            defer { users.remove(after: fixture) }
            try Self.start(fixture, access: "host-group = \(AuthUsers.hostGroup)")
            let hostGID = try #require(getgrnam(AuthUsers.hostGroup)).pointee.gr_gid

            let flood = try SocketFlood(
                directory: fixture.directory, socket: fixture.socketPath, count: 2000, uid: users.host.uid, gid: users.host.gid)
            defer { flood.release() }
            let perUID = "limit exceeded: 64 open connections of uid \(users.host.uid) (max-connections-per-uid in [limits] of widgetd.conf)"
            #expect(flood.report.opened == 2000)
            #expect(flood.report.refused == 2000 - 64, "\(flood.report.messages)")
            #expect(flood.report.messages == [perUID: 2000 - 64], "\(flood.report.messages)")

            // Root, and a second member of the host group, get in and are answered.
            let root = fixture.ctl("--json", "ping")
            #expect(root.status == 0, "root: \(root.stderr)")
            let second = CommandRun.run(
                "/usr/bin/setpriv",
                ["--reuid=\(users.owner.uid)", "--regid=\(users.owner.gid)", "--groups=\(hostGID)", "--", users.widgetctl, "ping"],
                environment: ["WIDGETD_SOCKET": fixture.socketPath, "PATH": "/usr/bin:/bin", "HOME": "/"])
            #expect(second.status == 0, "a second host-group user: \(second.stderr)")
            // The flooding user is told which key, by widgetctl too.
            let flooder = users.ctl(as: users.host, ["ping"], socket: fixture.socketPath).result
            #expect(flooder.status != 0 && flooder.stderr.contains("max-connections-per-uid"), "\(flooder.stderr)")
            let logged = fixture.log().split(separator: "\n").filter { $0.contains("connection refused: max-connections-per-uid reached") }
            #expect(logged.count == 1, "refusals are logged once a minute: \(logged)")
            print("hostile socket: 2,000 connections from uid \(users.host.uid): \(2000 - flood.report.refused) held, "
                + "\(flood.report.refused) refused (\(flood.report.messages.keys.sorted().joined(separator: "; "))); "
                + "root: exit \(root.status), a second host-group user: exit \(second.status)")
        }

        /// 50 connections dribble a partial line a byte at a time: each is closed after
        /// `line-timeout` with an error naming the key, while a connection idle between
        /// requests and a subscriber, both older than the time-out, stay.
        @Test func slowlorisConnectionsAreClosedAfterTheLineTimeoutAndIdleOnesStay() throws {
            let fixture = try DaemonFixture()
            defer { fixture.stop() }
            try Self.start(fixture, limits: "line-timeout = 2s")
            let idle = try RawConnection(path: fixture.socketPath)
            #expect(idle.request(Self.ping)?["result"] != nil)
            let subscriber = try RawConnection(path: fixture.socketPath)
            let subscribed = subscriber.request(#"{"jsonrpc":"2.0","method":"subscribe","id":1}"#)?["result"] as? [String: Any]
            #expect(subscribed?["subscribed"] as? Bool == true)

            let slowloris = try SocketSlowloris(path: fixture.socketPath, count: 50)
            defer { slowloris.stop() }
            try Poll.until("the 50 slowloris connections to be closed", within: 60) { slowloris.closed.count == 50 }
            let told = slowloris.closed.values.filter { $0.contains("line-timeout in [limits] of widgetd.conf") }.count
            #expect(told == 50, "\(slowloris.closed.values.first ?? "")")
            let logged = fixture.log().split(separator: "\n").filter { $0.contains("connection closed: line-timeout reached") }
            #expect(logged.count == 50)

            // Both older than the time-out, both still served.
            #expect(idle.request(Self.ping)?["result"] != nil, "the idle connection")
            subscriber.send(Self.ping + "\n")
            var answered = false
            while let line = subscriber.readLine() {
                if line.contains(#""id":1"#) {
                    answered = line.contains("\"result\"")
                    break
                }
            }
            #expect(answered, "the subscriber")
            print("hostile socket: 50 slowloris connections, line-timeout = 2s: \(told) closed with -32014 naming line-timeout, "
                + "\(logged.count) log lines; an idle connection and a subscriber kept")
        }

        /// Three connections loop batches of 20,000 `status` requests: each gets its whole
        /// answer as one array in order, and another client's pings are answered throughout.
        @Test func threeBatchFloodsDoNotStarveOtherClients() throws {
            let fixture = try DaemonFixture()
            defer { fixture.stop() }
            try Self.start(fixture)
            let pinger = try SocketPinger(path: fixture.socketPath)
            let batch = SocketClients.statusBatch(20_000)
            let loopers = try (0..<3).map { _ in try SocketBatchLooper(path: fixture.socketPath, batch: batch, rounds: 4) }
            let results = loopers.map { $0.wait() }
            let (latencies, failures) = pinger.stop()
            for result in results {
                #expect(result.failure == nil, "\(result.failure ?? "")")
                #expect(result.answers == 4)
            }
            #expect(failures.isEmpty, "\(failures.prefix(5))")
            #expect(!latencies.isEmpty)

            // The answer is still one array, in order.
            let raw = try RawConnection(path: fixture.socketPath)
            raw.send(Data(SocketClients.statusBatch(1000)))
            let line = try #require(raw.readLine())
            let answers = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [[String: Any]])
            #expect(answers.map { $0["id"] as? Int } == Array(0..<1000))
            print("hostile socket: three connections looping 4 batches of 20,000 status "
                + "(\(results.map { $0.bytes / 4 / 1024 }.max() ?? 0) KiB an answer): other client \(SocketPinger.summary(latencies))")
        }
    }
}
