import Foundation
import Glibc
import Testing
@testable import WidgetTestSupport
@testable import WidgetIntegrationSupport

extension Integration {
    /// A provider flooding stderr or stdout, donations and
    /// configurations of hundreds of kilobytes, and a reader asking for hundreds of previews.
    /// Each is held to a bound: the daemon's memory, its state file, the launches it makes.
    @Suite struct HostileProviderOutput {
        /// 1 GiB, written within the provider's time-out.
        static let floodBytes = 1 << 30

        @Test func stderrAndStdoutFloodsKeepTheDaemonSmall() throws {
            let fixture = try DaemonFixture()
            try ProviderOutputWidgets.install(in: fixture)
            try fixture.start()
            let pid = try #require(fixture.pid)
            var ids: [ProviderOutputWidgets: String] = [:]
            for flood in ProviderOutputWidgets.allCases { ids[flood] = try fixture.add(flood.kind) }
            #expect(fixture.ctl("clock", "advance", "0s").status == 0)
            for flood in ProviderOutputWidgets.allCases {
                #expect(fixture.shownContent(ids[flood]!) == "good \(flood.rawValue)")
            }

            for flood in ProviderOutputWidgets.allCases {
                let id = ids[flood]!
                flood.setGood(false, in: fixture)
                let before = try ProcessStats.memory(pid)
                let start = ContinuousClock.now
                #expect(fixture.ctl("reload", flood.kind, "--user-initiated").status == 0)
                // Returns once the launch has been applied.
                #expect(fixture.ctl("clock", "advance", "0s").status == 0)
                let elapsed = ContinuousClock.now - start
                let after = try ProcessStats.memory(pid)
                let growth = after.peak - before.peak
                print("provider flood \(flood.rawValue): 1 GiB in \(elapsed);", terminator: " ")
                print("VmHWM \(before.peak) -> \(after.peak) KiB (+\(Self.mib(growth)) MiB), VmRSS \(after.rss) KiB")
                #expect(growth <= 8 * 1024, "\(flood): VmHWM \(before.peak) -> \(after.peak) KiB")

                // A failed reload with its reason; the last good timeline stays.
                let timeline = fixture.ctl("--json", "timeline", id).object
                let lastError = timeline["lastError"] as? String
                #expect(flood.isExpected(lastError), "\(flood): \(lastError ?? "no error")")
                #expect(fixture.shownContent(id) == "good \(flood.rawValue)")
                #expect(fixture.ctl("ping").status == 0)
                let logged = fixture.log().split(separator: "\n").filter {
                    $0.contains("provider failed; previous timeline kept") && $0.contains("kind=\(flood.kind)")
                }
                #expect(logged.count == 1 && flood.isExpected(String(logged[0])), "\(logged)")
                // The log line holds the end of the stderr's last line (300 characters, each
                // NUL escaped in 6), never the flood.
                #expect(logged.allSatisfy { $0.count < 2500 }, "\(logged.map(\.count))")
                print("logged: \(logged.first.map { $0.count < 300 ? String($0) : $0.prefix(110) + " … " + $0.suffix(80) } ?? "")")

                flood.setGood(true, in: fixture)
                #expect(fixture.ctl("reload", flood.kind, "--user-initiated").status == 0)
                #expect(fixture.ctl("clock", "advance", "0s").status == 0)
                #expect(fixture.ctl("--json", "timeline", id).object["lastError"] == nil)
            }
            // No provider left behind.
            #expect(Poll.eventually { ProcessStats.children(of: pid).isEmpty }, "\(ProcessStats.children(of: pid))")
        }

        @Test func oversizedDonationsAndConfigurationsAreRefusedByBytes() throws {
            let fixture = try DaemonFixture()
            try fixture.counterWidget()
            try fixture.start()
            let pid = try #require(fixture.pid)
            let instance = try fixture.add("test.counter", "city=Paris")
            let client = try RPCClient(socket: fixture.socketPath)
            // Warm: the decoder and the store have seen a request of each kind.
            try client.call("donate", ["intentType": "TestConfiguration", "parameters": ["city": "Paris"]])
            let before = try ProcessStats.memory(pid)
            let diskBefore = Self.bytes(in: fixture.stateDirectory)

            let blob = String(repeating: "x", count: 900_000)
            var refused = 0
            var messages = Set<String>()
            for index in 0..<300 {
                // The payload in the parameters, or in a string field beside them.
                var params: [String: Any] = ["intentType": "TestConfiguration", "parameters": ["city": blob]]
                if index % 3 == 1 { params = ["intentType": "TestConfiguration", "parameters": ["city": "Paris"], "group": blob] }
                if index % 3 == 2 { params = ["intentType": "TestConfiguration", "parameters": ["city": "Paris"], "id": blob] }
                do {
                    try client.call("donate", params)
                } catch let failure as RPCClient.Failure {
                    if failure.code == -32014 { refused += 1 }
                    messages.insert(String(failure.message.prefix(40)) + "…" + String(failure.message.suffix(50)))
                }
            }
            let after = try ProcessStats.memory(pid)
            let diskAfter = Self.bytes(in: fixture.stateDirectory)
            print("300 donations of 900 KB: \(refused) refused;", terminator: " ")
            print("VmHWM \(before.peak) -> \(after.peak) KiB (+\(Self.mib(after.peak - before.peak)) MiB),", terminator: " ")
            print("VmRSS \(before.rss) -> \(after.rss) KiB; state dir \(diskBefore) -> \(diskAfter) bytes")
            print("refusals: \(messages.sorted())")
            #expect(refused == 300)
            #expect(messages.allSatisfy { $0.contains("(max-donation-bytes in [limits] of widgetd.conf)") }, "\(messages)")
            #expect(after.peak - before.peak <= 8 * 1024)
            #expect(diskAfter - diskBefore < 1 << 20)
            let donations = (try client.call("donations.list") as? [[String: Any]]) ?? []
            #expect(donations.count == 1)
            // Just under the limit (16 KiB in all) is taken.
            try client.call("donate", ["intentType": "TestConfiguration", "parameters": ["city": String(repeating: "y", count: 16_000)]])

            // Configurations: add and configure refused before any provider is asked, nothing changed.
            let launches = fixture.launches().count
            let big = String(repeating: "z", count: 100_000)
            for (method, params) in [
                ("add", ["kind": "test.counter", "family": "systemSmall", "configuration": ["city": big]] as [String: Any]),
                ("configure", ["id": instance, "configuration": ["city": big]]),
                ("preview", ["kind": "test.counter", "family": "systemSmall", "configuration": ["city": big]]),
            ] {
                #expect {
                    try client.call(method, params)
                } throws: { error in
                    let failure = error as? RPCClient.Failure
                    return failure?.code == -32014
                        && failure?.message.contains("(max-configuration-bytes in [limits] of widgetd.conf)") == true
                }
            }
            let listed = fixture.ctl("--json", "list").array
            #expect(listed.count == 1)
            #expect((listed.first?["configuration"] as? [String: Any])?["city"] as? String == "Paris", "\(listed)")
            #expect(fixture.ctl("clock", "advance", "0s").status == 0)
            #expect(fixture.launches().count == launches)
            #expect(fixture.ctl("ping").status == 0)
        }

        /// MQTT's `PREFIX/donate` goes through the same method: an oversized donation is
        /// refused, logged with the key, acknowledged (not sent again), and nothing is stored.
        @Test func anOversizedRemoteDonationIsRefusedAndAcknowledged() throws {
            let setup = try RemoteSetup { fixture in try fixture.counterWidget() }
            let fixture = setup.fixture
            let donate = "\(RemoteSetup.prefix)/donate"
            let blob = String(repeating: "x", count: 60_000)
            try setup.broker.publish(donate, #"{"intentType": "TestConfiguration", "parameters": {"city": "\#(blob)"}, "id": "big"}"#)
            // Messages are applied in order: once the marker is stored, the big one was handled.
            try setup.broker.publish(donate, #"{"intentType": "TestConfiguration", "parameters": {"city": "Oslo"}, "id": "marker"}"#)
            try fixture.waitUntil("the marker donation to be stored", timeout: 60) { setup.donationIDs() == ["marker"] }
            let refusals = setup.refusals(donate)
            #expect(refusals.count == 1 && refusals[0].contains("(max-donation-bytes in [limits] of widgetd.conf)"), "\(refusals)")
            #expect(fixture.stop() == 0)
            try setup.start()
            try setup.broker.publish(donate, #"{"intentType": "TestConfiguration", "parameters": {"city": "Rome"}, "id": "after"}"#)
            try fixture.waitUntil("the donation after the restart to be stored", timeout: 60) { setup.donationIDs().contains("after") }
            #expect(setup.refusals(donate).count == 1, "acknowledged: not delivered again")
            #expect(Set(setup.donationIDs()) == ["marker", "after"])
        }

        @Test(.needs(AuthUsers.unavailable))
        func previewLaunchesPerCallerAreRated() throws {
            let limit = 20
            let fixture = try DaemonFixture()
            let users = try AuthUsers.open(for: fixture)
            defer { users.remove(after: fixture) }
            let launches = fixture.directory + "/previews.log"
            try fixture.provider("previewer", """
                #!/bin/sh
                cat > /dev/null
                echo "$1" >> "\(launches)"
                case "$1" in
                options) printf '{"options":[{"id":"a","display":"A"}]}\\n' ;;
                *) printf '{"date":"2026-01-05T08:00:00Z","content":{"verb":"%s"}}\\n' "$1" ;;
                esac
                """)
            try fixture.descriptor("test.preview", exec: ["./previewer"], intent: [
                "type": "PreviewIntent", "parameters": [["name": "place", "type": "entity"]],
            ])
            let config = fixture.directory + "/widgetd.conf"
            try "[access]\nhost-group = \(AuthUsers.hostGroup)\n[providers]\npreview-launches-per-minute = \(limit)\n"
                .write(toFile: config, atomically: true, encoding: .utf8)
            try fixture.start(arguments: ["--config", config])
            chmod(fixture.socketPath, 0o666)
            _ = FileManager.default.createFile(atPath: launches, contents: Data())
            chmod(launches, 0o666)

            let batch = fixture.directory + "/previews.json"
            let calls = (0..<300).map { _ in ["method": "preview", "params": ["kind": "test.preview", "family": "systemSmall"]] }
            try JSONSerialization.data(withJSONObject: calls).write(to: URL(fileURLWithPath: batch))
            chmod(batch, 0o644)
            func launched() -> Int {
                ((try? String(contentsOfFile: launches, encoding: .utf8)) ?? "").split(separator: "\n").count
            }

            let start = ContinuousClock.now
            let (result, _) = users.ctl(as: users.host, ["--json", "batch", batch], socket: fixture.socketPath)
            let elapsed = ContinuousClock.now - start
            let answers = (try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8))) as? [[String: Any]] ?? []
            let refusals = answers.compactMap { $0["error"] as? [String: Any] }
            let answered = answers.filter { $0["result"] != nil }.count
            print("300 previews from uid \(users.host.uid): \(launched()) launches, \(answered) answered, \(refusals.count) refused in \(elapsed)")
            #expect(answers.count == 300, "\(result.stderr)")
            #expect(launched() <= limit)
            #expect(answered == limit)
            #expect(refusals.count == 300 - limit)
            #expect(refusals.allSatisfy {
                $0["code"] as? Int == -32014 && ($0["data"] as? [String: Any])?["limit"] as? String == "preview-launches-per-minute"
                    && ($0["message"] as? String)?.contains("(preview-launches-per-minute in [providers] of widgetd.conf)") == true
            }, "\(refusals.first ?? [:])")

            // Root is not counted; the user gets room again a minute later.
            #expect(fixture.ctl("preview", "test.preview", "--family", "systemSmall").status == 0)
            let refused = users.ctl(as: users.host, ["preview", "test.preview", "--family", "systemSmall"], socket: fixture.socketPath).result
            #expect(refused.status != 0 && refused.stderr.contains("preview-launches-per-minute"), "\(refused.stderr)")
            // options shares the window; searched, it is never from the cache.
            let options = ["options", "test.preview", "place", "--search", "x"]
            let searched = users.ctl(as: users.host, options, socket: fixture.socketPath).result
            #expect(searched.status != 0 && searched.stderr.contains("preview-launches-per-minute"), "\(searched.stderr)")
            #expect(fixture.ctl("clock", "advance", "61s").status == 0)
            let again = users.ctl(as: users.host, ["preview", "test.preview", "--family", "systemSmall"], socket: fixture.socketPath).result
            #expect(again.status == 0, "\(again.stderr)")
            #expect(users.ctl(as: users.host, options, socket: fixture.socketPath).result.status == 0)
            #expect(launched() == limit + 3)
        }

        static func mib(_ kib: Int) -> String { String(format: "%.1f", Double(kib) / 1024) }

        /// Bytes of the files in a folder (the state database and its journal).
        static func bytes(in directory: String) -> Int {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
            return names.reduce(0) { total, name in
                let size = (try? FileManager.default.attributesOfItem(atPath: directory + "/" + name))?[.size] as? Int
                return total + (size ?? 0)
            }
        }
    }
}
