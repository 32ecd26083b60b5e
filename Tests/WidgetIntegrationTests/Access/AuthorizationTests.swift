import Foundation
import Glibc
import Testing
@testable import WidgetTestSupport
@testable import WidgetIntegrationSupport

extension Integration {
    /// Authorization with real users: the daemon (root) identifies each connection by
    /// SO_PEERCRED/SO_PEERGROUPS, and widgetctl runs as a kind's owner, a host-group member,
    /// someone else, and root.
    @Suite struct Authorization {
        @Test(.needs(AuthUsers.unavailable))
        func ownersHostsOthersAndRoot() throws {
            let fixture = try DaemonFixture()
            // The test users must reach the socket and the copied widgetctl.
            chmod(fixture.directory, 0o755)
            let users = try AuthUsers(in: fixture.directory)
            defer {
                fixture.stop()
                users.remove()
                #expect(!AuthUsers.exists(user: AuthUsers.ownerName) && !AuthUsers.exists(group: AuthUsers.hostGroup))
            }
            try fixture.counterWidget()
            try writeDescriptor(fixture, kind: "auth.owned", intentType: "OwnedIntent", owner: ["user": AuthUsers.ownerName])
            try writeDescriptor(fixture, kind: "auth.team", intentType: "TeamIntent", owner: ["group": AuthUsers.teamGroup])
            try writeDescriptor(fixture, kind: "auth.free", intentType: "FreeIntent", owner: nil)
            let config = fixture.directory + "/widgetd.conf"
            try "[access]\nhost-group = \(AuthUsers.hostGroup)\n".write(toFile: config, atomically: true, encoding: .utf8)
            try fixture.start(arguments: ["--config", config])
            chmod(fixture.socketPath, 0o666)

            let widgets = fixture.ctl("--json", "widgets").object["widgets"] as? [[String: Any]] ?? []
            let owned = widgets.first { $0["kind"] as? String == "auth.owned" }
            #expect((owned?["owner"] as? [String: Any])?["uid"] as? Int == Int(users.owner.uid))

            // Root places one instance of each kind and a stack.
            let ownedID = try fixture.add("auth.owned")
            let teamID = try fixture.add("auth.team")
            let freeID = try fixture.add("auth.free")
            #expect(fixture.ctl("stack", "create", "home").status == 0)
            #expect(fixture.ctl("stack", "add", "home", freeID, ownedID).status == 0)

            let timelineFile = fixture.directory + "/timeline.json"
            try #"{"entries":[{"date":"2026-01-05T08:00:00Z","content":{"by":"test"}}],"policy":"never"}"#
                .write(toFile: timelineFile, atomically: true, encoding: .utf8)
            chmod(timelineFile, 0o644)

            var refusals = 0
            /// widgetctl as `user`, expecting `status`: 0, or 1 (refused: the message and the
            /// log line are checked).
            @discardableResult
            func ctl(_ user: AuthUsers.User, _ arguments: String..., expect status: Int32, kind: String? = nil) -> DaemonFixture.Result {
                let (result, pid) = users.ctl(as: user, arguments, socket: fixture.socketPath)
                #expect(result.status == status, "\(user.name) \(arguments): \(result.stderr)")
                if status == 1 {
                    refusals += 1
                    #expect(result.stderr.contains("permission denied: uid \(user.uid) may not call"), "\(result.stderr)")
                    #expect(result.stderr.contains("allowed: root"), "\(result.stderr)")
                    if let kind { #expect(result.stderr.contains("kind '\(kind)'"), "\(arguments): \(result.stderr)") }
                    // The refusal is logged, with the caller's pid.
                    #expect(waitForLog { $0.contains("permission denied") && $0.contains("pid=\(pid) ") }, "\(arguments)")
                }
                return result
            }
            func waitForLog(_ matches: (String) -> Bool) -> Bool {
                let deadline = Date().addingTimeInterval(10)
                while Date() < deadline {
                    if fixture.log().split(separator: "\n").contains(where: { matches(String($0)) }) { return true }
                    usleep(20_000)
                }
                return false
            }

            // The owner: its kinds (by user and by group), nothing else.
            let owner = users.owner
            ctl(owner, "push", ownedID, timelineFile, expect: 0)
            ctl(owner, "push", teamID, timelineFile, expect: 0)
            ctl(owner, "reload", "auth.owned", expect: 0)
            ctl(owner, "reload", "--instance", ownedID, expect: 0)
            ctl(owner, "relevance", "invalidate", "auth.owned", expect: 0)
            ctl(owner, "donate", "OwnedIntent", expect: 0)
            let all = ctl(owner, "--json", "reload", "--all", expect: 0).object["instances"] as? [String] ?? []
            #expect(Set(all) == [ownedID, teamID])
            ctl(owner, "list", expect: 0)
            let ownerBefore = snapshot(fixture)
            ctl(owner, "push", freeID, timelineFile, expect: 1, kind: "auth.free")
            ctl(owner, "reload", "auth.free", expect: 1, kind: "auth.free")
            ctl(owner, "relevance", "invalidate", "auth.free", expect: 1, kind: "auth.free")
            ctl(owner, "reload", "--instance", ownedID, freeID, expect: 1, kind: "auth.free")
            ctl(owner, "donate", "FreeIntent", expect: 1, kind: "auth.free")
            ctl(owner, "add", "auth.owned", "--family", "systemSmall", expect: 1)
            ctl(owner, "remove", ownedID, expect: 1)
            ctl(owner, "stack", "create", "mine", expect: 1)
            ctl(owner, "stack", "swipe", "home", ownedID, expect: 1)
            // A simulation that runs providers runs those of every kind, not only its own.
            ctl(owner, "simulate", "--hours", "1", "--run-providers", expect: 1)
            #expect(snapshot(fixture) == ownerBefore)

            // A host: instances, stacks, visibility, the clock; reloads anything; pushes and
            // donates only for the kind without owner.
            let host = users.host
            let placed = ctl(host, "--json", "add", "auth.free", "--family", "systemSmall", expect: 0).object["id"] as? String ?? ""
            ctl(host, "configure", placed, "--set", "slot=2", expect: 0)
            ctl(host, "stack", "create", "desk", expect: 0)
            ctl(host, "stack", "add", "desk", placed, freeID, expect: 0)
            ctl(host, "stack", "swipe", "desk", freeID, expect: 0)
            ctl(host, "stack", "smart-rotate", "desk", "off", expect: 0)
            ctl(host, "visible", freeID, expect: 0)
            ctl(host, "clock", "advance", "1m", expect: 0)
            ctl(host, "reload", "auth.owned", "auth.free", expect: 0)
            ctl(host, "push", freeID, timelineFile, expect: 0)
            ctl(host, "donate", "FreeIntent", expect: 0)
            ctl(host, "remove", placed, expect: 0)
            ctl(host, "stack", "remove", "desk", expect: 0)
            ctl(host, "simulate", "--hours", "1", "--run-providers", expect: 0)
            let hostBefore = snapshot(fixture)
            ctl(host, "push", ownedID, timelineFile, expect: 1, kind: "auth.owned")
            ctl(host, "donate", "OwnedIntent", expect: 1, kind: "auth.owned")
            #expect(snapshot(fixture) == hostBefore)

            // Anyone else reads, and is refused everything that changes state.
            let other = users.other
            for read in [["status"], ["list"], ["widgets"], ["timeline", ownedID], ["stack", "show", "home"], ["schedule"],
                         ["budget", ownedID], ["explain", "home"], ["log"], ["simulate", "--hours", "1"]] {
                let (result, _) = users.ctl(as: other, read, socket: fixture.socketPath)
                #expect(result.status == 0, "\(read): \(result.stderr)")
            }
            let otherBefore = snapshot(fixture)
            ctl(other, "add", "auth.free", "--family", "systemSmall", expect: 1)
            ctl(other, "remove", freeID, expect: 1)
            ctl(other, "configure", freeID, "--set", "slot=3", expect: 1)
            ctl(other, "push", ownedID, timelineFile, expect: 1, kind: "auth.owned")
            ctl(other, "push", freeID, timelineFile, expect: 1, kind: "auth.free")
            ctl(other, "reload", "auth.owned", expect: 1, kind: "auth.owned")
            ctl(other, "reload", "--instance", ownedID, expect: 1, kind: "auth.owned")
            ctl(other, "relevance", "invalidate", "auth.owned", expect: 1, kind: "auth.owned")
            ctl(other, "reload", "--all", expect: 1)
            ctl(other, "donate", "OwnedIntent", expect: 1, kind: "auth.owned")
            ctl(other, "donations", "delete", "--all", expect: 1)
            ctl(other, "stack", "create", "theirs", expect: 1)
            ctl(other, "stack", "add", "home", teamID, expect: 1)
            ctl(other, "stack", "swipe", "home", ownedID, expect: 1)
            ctl(other, "stack", "remove", "home", expect: 1)
            ctl(other, "visible", ownedID, expect: 1)
            ctl(other, "clock", "advance", "1h", expect: 1)
            ctl(other, "clock", "set", "2026-01-06T00:00:00Z", expect: 1)
            ctl(other, "simulate", "--hours", "1", "--run-providers", expect: 1)
            #expect(snapshot(fixture) == otherBefore)

            // Owners are resolved again on SIGHUP: auth.free now belongs to the other user.
            try writeDescriptor(fixture, kind: "auth.free", intentType: "FreeIntent", owner: ["user": AuthUsers.otherName])
            kill(fixture.process!.processIdentifier, SIGHUP)
            #expect(fixture.notify?.wait(for: "READY=1", timeout: 10) != nil)
            ctl(other, "push", freeID, timelineFile, expect: 0)
            ctl(host, "push", freeID, timelineFile, expect: 1, kind: "auth.free")

            // Root may do everything.
            #expect(fixture.ctl("push", ownedID, timelineFile).status == 0)
            #expect(fixture.ctl("donate", "OwnedIntent").status == 0)
            #expect(fixture.ctl("donations", "delete", "--all").status == 0)
            #expect(fixture.ctl("stack", "remove", "home").status == 0)
            #expect(fixture.ctl("remove", teamID).status == 0)

            // Each refusal logged once, with uid, pid, method and (where there is one) kind.
            let logged = fixture.log().split(separator: "\n").filter { $0.contains("permission denied") }
            #expect(logged.count == refusals)
            let example = logged.first { $0.contains("uid=\(other.uid)") && $0.contains("method=push") && $0.contains("kind=auth.owned") }
            #expect(example != nil)
            print("authorization: \(refusals) refusals by 3 test users, each answered -32013 (exit 1) and logged once; state unchanged")
        }

        private func writeDescriptor(_ fixture: DaemonFixture, kind: String, intentType: String, owner: [String: String]?) throws {
            var object: [String: Any] = [
                "kind": kind, "supportedFamilies": ["systemSmall"], "provider": ["exec": ["./counter", fixture.launchLog]],
                "intent": ["type": intentType, "parameters": [["name": "slot", "type": "integer"]]],
            ]
            if let owner { object["owner"] = owner }
            let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
            try data.write(to: URL(fileURLWithPath: fixture.widgetsDirectory + "/" + kind + ".json"))
        }

        /// What a refused request could have changed: instances, stacks, timelines, pending
        /// reloads. Waits for running launches first, so only the requests can change it.
        private func snapshot(_ fixture: DaemonFixture) -> String {
            let now = fixture.ctl("--json", "clock").object["now"] as? String ?? ""
            let deadline = Date().addingTimeInterval(30)
            while Date() < deadline {
                let busy = fixture.ctl("--json", "schedule").array.contains { item in
                    item["inFlight"] as? Bool == true || (item["due"] as? String ?? "") <= now
                }
                if !busy { break }
                usleep(50_000)
            }
            let list = fixture.ctl("--json", "list").stdout
            let stacks = fixture.ctl("--json", "stack", "list").stdout
            let schedule = fixture.ctl("--json", "schedule").stdout
            let timelines = fixture.ctl("--json", "list").array.compactMap { $0["id"] as? String }
                .map { fixture.ctl("--json", "timeline", $0).stdout }
            return ([list, stacks, schedule] + timelines).joined(separator: "\n")
        }
    }
}
