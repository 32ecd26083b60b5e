import Foundation
import Glibc
import Testing
@testable import WidgetIntegrationSupport

extension Integration {
    /// The web host attacked from outside: framed by another origin in a real Chromium, flooded
    /// with connections past its limit and at its open-file limit, fed query values as
    /// browsers encode them and values no route can use, and served on a unix socket.
    @Suite struct HostileWebHost {
        static let csp = "frame-ancestors 'none'"

        /// A stack `home` of two notes with Smart Rotate on.
        static func stack(_ fixture: DaemonFixture) throws {
            try fixture.descriptor("test.note", exec: nil)
            try fixture.start(clock: "2026-01-05T08:00:00Z")
            #expect(fixture.ctl("stack", "create", "home").status == 0)
            let first = try fixture.add("test.note")
            let second = try fixture.add("test.note")
            #expect(fixture.ctl("stack", "add", "home", first, second).status == 0)
        }

        static func smartRotate(_ fixture: DaemonFixture) -> Bool? {
            fixture.ctl("--json", "stack", "list").array.first { $0["name"] as? String == "home" }?["smartRotate"] as? Bool
        }

        static func forbidsFraming(_ headers: [String: String]) -> Bool {
            headers["x-frame-options"] == "DENY" && (headers["content-security-policy"] ?? "").contains(csp)
        }

        @Test func aPageOfAnotherOriginThatFramesTheHostGetsABlockedFrameAndItsClickChangesNothing() throws {
            let fixture = try DaemonFixture()
            try Self.stack(fixture)
            #expect(Self.smartRotate(fixture) == true)
            let host = try WebHostProcess(fixture)
            let browser = try Chromium(url: host.url, directory: fixture.directory)
            defer { browser.close() }
            let page = try browser.page()
            // Where the page draws the Smart Rotate switch when the visitor opens it: the
            // frame below fills the same window, so the switch would lie at the same point.
            let switchAt = """
                (() => { const s = document.querySelector('[data-stack=home] [data-action=smart-rotate]'); if (!s) return null;
                  const r = s.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; })()
                """
            let found = try page.waitFor("the Smart Rotate switch on the page", switchAt) { ($0 as? [Any])?.count == 2 }
            let point = (found as? [Any] ?? []).compactMap { ($0 as? NSNumber)?.doubleValue }
            #expect(point.count == 2)

            let attack = try WebAttackPage(html: """
                <!doctype html><html><head><title>win a prize</title></head><body style="margin:0">
                <iframe id="host" src="\(host.url)" style="border:0;position:fixed;left:0;top:0;width:100%;height:100%"></iframe>
                </body></html>
                """)
            defer { attack.stop() }
            try page.command("Page.navigate", ["url": attack.url])
            try page.waitFor("the attacker's page", "location.href") { $0 as? String == attack.url }

            // The frame, as the browser holds it: the host's page (its `#stacks` there) or the
            // error page that stands for a refused frame.
            var frame: [String: Any] = [:]
            var hostPageInFrame = false
            try Poll.until("the frame to hold the host's page or the browser's refusal", within: 30) {
                let tree = try page.command("Page.getFrameTree")
                let children = (tree["frameTree"] as? [String: Any])?["childFrames"] as? [[String: Any]] ?? []
                guard let child = children.first?["frame"] as? [String: Any], let id = child["id"] as? String else { return false }
                frame = child
                let url = child["url"] as? String ?? ""
                if url.hasPrefix("chrome-error:") || child["unreachableUrl"] != nil { return true }
                // The frame may navigate (to the host or to the error page) between these calls.
                let result: [String: Any]
                do {
                    let world = try page.command("Page.createIsolatedWorld", ["frameId": id, "worldName": "test"])
                    guard let context = world["executionContextId"] as? Int else { return false }
                    result = try page.command(
                        "Runtime.evaluate",
                        ["expression": "!!document.querySelector('[data-stack=home] [data-action=smart-rotate]')", "contextId": context, "returnByValue": true])
                } catch let error where DevToolsPage.isContextGone(error) {
                    return false
                }
                hostPageInFrame = (result["result"] as? [String: Any])?["value"] as? Bool == true
                return hostPageInFrame
            }
            print("HostileWebHost framing: the frame is \(frame["url"] ?? "?") (unreachable: \(frame["unreachableUrl"] ?? "none"))")
            #expect(!hostPageInFrame, "the host's page loaded in another origin's frame: \(frame)")

            // The visitor clicks where the switch would be.
            for type in ["mousePressed", "mouseReleased"] {
                try page.command("Input.dispatchMouseEvent", ["type": type, "x": point[0], "y": point[1], "button": "left", "clickCount": 1])
            }
            // Watched for a while: a click that got through turns it off within milliseconds.
            for _ in 0..<25 {
                guard Self.smartRotate(fixture) == true else {
                    Issue.record("the click in the other origin's frame turned Smart Rotate off")
                    break
                }
                usleep(40_000)
            }
            #expect(host.isRunning)
        }

        @Test func everyRouteAndEveryRefusalForbidsFraming() throws {
            let fixture = try DaemonFixture()
            try Self.stack(fixture)
            let host = try WebHostProcess(fixture)
            let tcp = WebExchange.Target.tcp(port: host.port)
            let requests: [(method: String, path: String, body: String?, headers: [String])] = [
                ("GET", "/", nil, []), ("GET", "/app.js", nil, []), ("GET", "/app.css", nil, []),
                ("GET", "/api/page", nil, []), ("GET", "/api/widgets", nil, []), ("GET", "/api/schedule", nil, []),
                ("GET", "/simulate.svg?hours=2", nil, []), ("GET", "/simulate.svg?hours=nan", nil, []),
                ("GET", "/api/instances/nope/timeline", nil, []), ("GET", "/api/stacks/home/explain", nil, []),
                ("GET", "/api/stacks/home/log?limit=5", nil, []), ("GET", "/api/options?kind=test.note&parameter=x", nil, []),
                ("GET", "/nowhere", nil, []),
                ("POST", "/api/stacks/home/smart-rotate", #"{"on":true}"#, []),
                ("POST", "/api/instances", "{not json", []),
                ("POST", "/api/instances", #"{"kind":"test.note","family":"systemSmall"}"#, ["Origin: http://elsewhere.example"]),
                ("GET", "/api/page", nil, ["Host: elsewhere.example"]),
            ]
            for request in requests {
                let answer = try WebExchange.send(tcp, request.method, request.path, body: request.body, headers: request.headers)
                print("HostileWebHost headers: \(request.method) \(request.path) → \(answer.status)")
                #expect(Self.forbidsFraming(answer.headers), "\(request.method) \(request.path) (\(answer.status)): \(answer.headers)")
                #expect(answer.status != 500, "\(request.method) \(request.path): \(answer.body)")
            }
            let events = try StreamConnection(tcp)
            try events.send("GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            let head = try events.read(through: "\r\n\r\n", by: .now + .seconds(20), "the head of /events", orEnd: true)
            #expect(Self.forbidsFraming(try WebExchange.parse(head, "GET /events").headers), "\(head)")
        }

        /// Slowloris against the web host: connections that never finish a request head, or sit
        /// between requests, give their slots back after `--idle-timeout`; an open event stream
        /// is a request under way and stays.
        @Test func connectionsWithNoRequestUnderWayAreClosedAfterTheIdleTimeOut() throws {
            let fixture = try DaemonFixture()
            try Self.stack(fixture)
            let limit = 10
            let host = try WebHostProcess(fixture, arguments: ["--max-connections", "\(limit)", "--idle-timeout", "1"])
            let stream = try StreamConnection(.tcp(port: host.port))
            try stream.send("GET /events HTTP/1.1\r\nHost: 127.0.0.1:\(host.port)\r\n\r\n")
            _ = try stream.read(through: "\n\n", by: .now + .seconds(30), "the event stream's first event", orEnd: true)
            let loris = try (0..<(limit - 1)).map { _ in try StreamConnection(.tcp(port: host.port)) }
            for connection in loris { try connection.send("GET / HTTP/1.1\r\nHost: 127.0") }
            let started = ContinuousClock.now
            for (index, connection) in loris.enumerated() {
                let rest = try connection.readToEnd(by: .now + .seconds(30), "slow connection \(index) to be closed")
                #expect(rest.isEmpty || rest.hasPrefix("HTTP/1.1 408") || rest.hasPrefix("HTTP/1.1 400"), "\(rest.prefix(200))")
            }
            let closedAfter = started.duration(to: .now)
            // The slots are free again: a normal request is answered while the stream stays open.
            let page = try WebExchange.send(.tcp(port: host.port), "GET", "/api/page")
            #expect(page.status == 200)
            try stream.send("")
            #expect(host.isRunning)
            print("HostileWebHost slowloris: \(loris.count) partial request heads closed after \(closedAfter) at --idle-timeout 1; the event stream stayed")
        }

        @Test func aFloodPastTheConnectionLimitGets503AndTheHostKeepsServing() throws {
            let fixture = try DaemonFixture()
            try Self.stack(fixture)
            let limit = 20
            let host = try WebHostProcess(fixture, arguments: ["--max-connections", "\(limit)"])
            let pid = host.processIdentifier
            let descriptorsBefore = ProcessStats.openDescriptors(pid)
            let flood = WebFlood(.tcp(port: host.port))
            try flood.open(limit + 300)
            let descriptorsDuring = ProcessStats.openDescriptors(pid)
            print("HostileWebHost flood: \(flood.held.count) held, \(flood.refused) refused with 503 (\(flood.refusedWithRetryAfter) with Retry-After), descriptors \(descriptorsBefore) → \(descriptorsDuring), VmHWM \(ProcessStats.peakMemory(pid) / 1024) MiB")
            #expect(flood.otherAnswers.isEmpty, "\(flood.otherAnswers.prefix(5))")
            #expect(flood.held.count == limit)
            #expect(flood.refused == 300)
            #expect(flood.refusedWithRetryAfter == flood.refused)
            // Still answering while full: a refusal that names the setting.
            let full = try WebExchange.send(.tcp(port: host.port), "GET", "/api/page")
            #expect(full.status == 503 && full.body.contains("--max-connections"), "\(full.status) \(full.body)")
            #expect(full.headers["retry-after"] != nil)
            #expect(Self.forbidsFraming(full.headers))
            #expect(host.log().contains("--max-connections"), "one line says the limit was reached: \(host.log())")

            flood.release()
            try Poll.until("the host to answer a normal request once the flood left") {
                (try? WebExchange.send(.tcp(port: host.port), "GET", "/api/page").status) == 200
            }
            #expect(host.isRunning)
            #expect(host.stop() == 0)
        }

        @Test func aFloodAtTheOpenFileLimitNeitherCrashesNorStopsTheHost() throws {
            let fixture = try DaemonFixture()
            try Self.stack(fixture)
            let openFiles = 200
            // The default limit is far above what 200 descriptors hold: the host must lower it.
            let host = try WebHostProcess(fixture, openFileLimit: openFiles)
            let pid = host.processIdentifier
            let flood = WebFlood(.tcp(port: host.port))
            try flood.open(openFiles + 300, within: 60)
            let descriptors = ProcessStats.openDescriptors(pid)
            print("HostileWebHost open-file limit \(openFiles): \(flood.held.count) held, \(flood.refused) refused with 503, descriptors \(descriptors), VmHWM \(ProcessStats.peakMemory(pid) / 1024) MiB")
            #expect(flood.otherAnswers.isEmpty, "\(flood.otherAnswers.prefix(5))")
            #expect(flood.refused > 0)
            #expect(descriptors < openFiles)
            // While full it keeps answering, and past the flood it serves again.
            for _ in 0..<20 {
                let answer = try WebExchange.send(.tcp(port: host.port), "GET", "/api/page")
                #expect(answer.status == 503 || answer.status == 200)
            }
            #expect(host.isRunning, "the host died: \(host.log().suffix(2000))")
            flood.release()
            try Poll.until("the host to answer a normal request once the flood left") {
                (try? WebExchange.send(.tcp(port: host.port), "GET", "/api/page").status) == 200
            }
            #expect(host.isRunning)
            #expect(host.log().contains("open-file limit"), "the start says the limit was lowered: \(host.log())")
        }

        @Test func queryValuesAreDecodedAsBrowsersEncodeThem() throws {
            let fixture = try DaemonFixture()
            try Integration.Configuration.setUp(fixture)
            try fixture.start()
            let host = try WebHostProcess(fixture)
            for (query, search) in [("New+York", "New York"), ("a%2Bb", "a+b"), ("caf%C3%A9+au+lait", "café au lait")] {
                let answer = try WebExchange.send(
                    .tcp(port: host.port), "GET", "/api/options?kind=test.random&parameter=customRange&family=systemSmall&search=\(query)")
                #expect(answer.status == 200, "\(answer.body)")
                let asked = Integration.Configuration.requests(fixture, verb: "options").last ?? ""
                #expect(asked.contains(#""search":"\#(search)""#), "search=\(query) reached the provider as: \(asked)")
            }
            let broken = try WebExchange.send(.tcp(port: host.port), "GET", "/api/options?kind=test.random&parameter=customRange&search=%E0%A4")
            #expect(broken.status == 400, "\(broken.status) \(broken.body)")
        }

        @Test func valuesNoRouteCanUseAnswer400NamingTheParameter() throws {
            let fixture = try DaemonFixture()
            try Self.stack(fixture)
            let host = try WebHostProcess(fixture)
            let tcp = WebExchange.Target.tcp(port: host.port)
            for hours in ["nan", "1e999", "-1", "0", "inf", "abc", "169", ""] {
                let answer = try WebExchange.send(tcp, "GET", "/simulate.svg?hours=\(hours)")
                #expect(answer.status == 400 && answer.body.contains("hours"), "hours=\(hours): \(answer.status) \(answer.body)")
            }
            #expect(try WebExchange.send(tcp, "GET", "/simulate.svg?hours=1.5").status == 200)
            #expect(try WebExchange.send(tcp, "GET", "/simulate.svg").status == 200)
            for limit in ["abc", "1e999", "-1", "0", "1.5", "100001"] {
                let answer = try WebExchange.send(tcp, "GET", "/api/stacks/home/log?limit=\(limit)")
                #expect(answer.status == 400 && answer.body.contains("limit"), "limit=\(limit): \(answer.status) \(answer.body)")
            }
            #expect(try WebExchange.send(tcp, "GET", "/api/stacks/home/log?limit=5").status == 200)
            for body in ["{not json", "[1,2]", #"{"on": 1e999}"#] {
                let answer = try WebExchange.send(tcp, "POST", "/api/stacks/home/smart-rotate", body: body)
                #expect(answer.status == 400, "\(body): \(answer.status) \(answer.body)")
            }
            #expect(Self.smartRotate(fixture) == true)
        }

        @Test func theUnixListenerServesThePageAndItsModeDecidesWhoGetsIn() throws {
            if let reason = AuthUsers.unavailable {
                print("HostileWebHost unix listener skipped: \(reason)")
                return
            }
            let fixture = try DaemonFixture()
            try Self.stack(fixture)
            let users = try AuthUsers(in: fixture.directory)
            defer { users.remove() }
            // Every folder on the way is open: the socket's own mode decides.
            chmod(fixture.directory, 0o755)
            let path = fixture.directory + "/web.sock"
            let host = try WebHostProcess(fixture, arguments: ["--listen", "unix:" + path, "--unix-group", AuthUsers.hostGroup])
            try Poll.until("the unix listener's start-up line") { host.log().contains("serving unix:\(path)") }
            var info = stat()
            #expect(stat(path, &info) == 0)
            #expect(info.st_mode & 0o777 == 0o660, "mode \(String(info.st_mode & 0o777, radix: 8))")
            #expect(info.st_gid == getgrnam(AuthUsers.hostGroup)?.pointee.gr_gid)
            let page = try WebExchange.send(.unix(path: path), "GET", "/")
            #expect(page.status == 200 && page.body.contains("<title>widgetd</title>"))
            #expect(Self.forbidsFraming(page.headers))
            #expect(try WebExchange.send(.unix(path: path), "GET", "/api/page").status == 200)
            // The kernel applies the mode: a member of the group connects, another user does not.
            let member = users.ctl(as: users.host, ["ping"], socket: path).result
            let outsider = users.ctl(as: users.other, ["ping"], socket: path).result
            print("HostileWebHost unix listener: member → \(member.status) \(member.stderr.prefix(160)); outsider → \(outsider.status) \(outsider.stderr.prefix(160))")
            #expect(!member.stderr.lowercased().contains("permission denied"), "\(member.stderr)")
            #expect(outsider.status != 0 && outsider.stderr.lowercased().contains("permission"), "\(outsider.stderr)")
            // The TCP listener says whom it lets in.
            #expect(host.log().contains("every local user"), "\(host.log())")
        }
    }
}
