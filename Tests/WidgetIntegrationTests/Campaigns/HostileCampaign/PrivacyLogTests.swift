import Foundation
import Glibc
import Testing
@testable import WidgetTestSupport
@testable import WidgetIntegrationSupport

extension Integration {
    /// Donations seen only by who may list them, and names that cannot forge log lines or
    /// drive a terminal: the real daemon, real users, real widgetctl.
    @Suite struct HostilePrivacyLog {
        static let forgedIntent = "X\n2026-11-27T09:14:00Z info widgetd stopped FORGED\u{1B}[31m"
        static let hostileStack = "\u{1B}[2J\n"
        /// What a terminal or a log reader must never get raw: ESC, CR, BEL, DEL, a C1 CSI,
        /// the line separator and a bidi override.
        static let rawControls: [Unicode.Scalar] = ["\u{1B}", "\r", "\u{07}", "\u{7F}", "\u{9B}", "\u{2028}", "\u{202E}"]

        /// A kind's owner sees its own intent type's donations and not another's; a user who
        /// may not list donations sees none, in `explain`, `simulate`, `log` and the event
        /// stream; the host group and root see all. The rest of each answer is the same.
        @Test(.needs(AuthUsers.unavailable))
        func donationsAppearOnlyToWhoMayListThem() throws {
            let fixture = try DaemonFixture()
            chmod(fixture.directory, 0o755)
            let users = try AuthUsers(in: fixture.directory)
            var watches: [PrivacyWatch] = []
            defer {
                for watch in watches { watch.stop() }
                fixture.stop()
                users.remove()
            }
            try fixture.counterWidget()
            try Self.intentKind(fixture, kind: "privacy.owned", intentType: "OwnedIntent", owner: ["user": AuthUsers.ownerName])
            try Self.intentKind(fixture, kind: "privacy.free", intentType: "FreeIntent", owner: nil)
            let config = fixture.directory + "/widgetd.conf"
            try "[access]\nhost-group = \(AuthUsers.hostGroup)\n".write(toFile: config, atomically: true, encoding: .utf8)
            try fixture.start(clock: "2026-01-05T09:00:00Z", arguments: ["--config", config])
            chmod(fixture.socketPath, 0o666)

            let free = try fixture.add("privacy.free", "slot=1")
            let owned = try fixture.add("privacy.owned", "slot=1")
            #expect(fixture.ctl("stack", "create", "home").status == 0)
            #expect(fixture.ctl("stack", "add", "home", free, owned).status == 0)
            #expect(fixture.ctl("clock", "advance", "30m").status == 0)

            // Everyone watches before the donations make the stack rotate.
            watches = [
                try PrivacyWatch("root", user: nil, users: users, fixture: fixture),
                try PrivacyWatch("host", user: users.host, users: users, fixture: fixture),
                try PrivacyWatch("owner", user: users.owner, users: users, fixture: fixture),
                try PrivacyWatch("other", user: users.other, users: users, fixture: fixture),
            ]
            try Poll.until("four subscribers") { fixture.ctl("--json", "status").object["subscribers"] as? Int == 4 }

            // The user looked at the owned kind's information around 09:30 on past weekdays, and
            // once at the free kind's on a weekend: the owned instance rotates in.
            let monday = ISO8601DateFormatter().date(from: "2026-01-05T09:30:00Z")!
            func day(_ back: Int) -> String { ISO8601DateFormatter().string(from: monday.addingTimeInterval(-Double(back) * 86400)) }
            for back in [1, 5, 6, 7] {
                #expect(fixture.ctl("donate", "OwnedIntent", "--set", "slot=1", "--id", "owned-d\(back)", "--at", day(back)).status == 0)
            }
            #expect(fixture.ctl("donate", "FreeIntent", "--set", "slot=1", "--id", "free-d2", "--at", day(2)).status == 0)
            #expect(fixture.ctl("--json", "stack", "show", "home").object["top"] as? String == owned)

            // The shape each caller should see: which instance shows its donations to whom.
            let sees: [(name: String, user: AuthUsers.User?, free: Bool, owned: Bool)] = [
                ("root", nil, true, true), ("host", users.host, true, true), ("owner", users.owner, false, true),
                ("other", users.other, false, false),
            ]
            func ctl(_ user: AuthUsers.User?, _ arguments: String...) -> DaemonFixture.Result {
                guard let user else { return fixture.ctl(arguments) }
                return users.ctl(as: user, arguments, socket: fixture.socketPath).result
            }
            let full = ctl(nil, "--json", "explain", "home").object
            let fullCandidates = full["candidates"] as? [[String: Any]] ?? []
            #expect(Self.donations(fullCandidates, owned)?.contains("owned-d7") == true)
            #expect(Self.donations(fullCandidates, free) == ["free-d2"])

            for who in sees {
                // explain: the donations of the instances the caller may not list are left out,
                // every other field is the same.
                let explained = ctl(who.user, "--json", "explain", "home")
                #expect(explained.status == 0, "\(who.name): \(explained.stderr)")
                let candidates = explained.object["candidates"] as? [[String: Any]] ?? []
                #expect(Self.hidden(candidates, owned) == !who.owned, "\(who.name) explain: \(explained.stdout)")
                #expect(Self.hidden(candidates, free) == !who.free, "\(who.name) explain: \(explained.stdout)")
                if who.owned { #expect(Self.donations(candidates, owned)?.isEmpty == false, "\(who.name) explain") }
                #expect(Self.stripped(explained.object) == Self.stripped(full), "\(who.name) explain")
                Self.expectNoForeignIDs(explained.stdout, free: who.free, owned: who.owned, "\(who.name) explain")

                // The human table says so.
                let table = ctl(who.user, "explain", "home").stdout
                #expect(table.contains("hidden") == !(who.free && who.owned), "\(who.name): \(table)")
                Self.expectNoForeignIDs(table, free: who.free, owned: who.owned, "\(who.name) explain table")

                // log: every decision's candidates, the same way.
                let log = ctl(who.user, "--json", "log", "--stack", "home")
                #expect(log.status == 0 && !log.array.isEmpty, "\(who.name): \(log.stderr)")
                for decision in log.array {
                    let candidates = decision["candidates"] as? [[String: Any]] ?? []
                    if !who.owned { #expect(Self.hidden(candidates, owned), "\(who.name) log") }
                    if !who.free { #expect(Self.hidden(candidates, free), "\(who.name) log") }
                }
                Self.expectNoForeignIDs(log.stdout, free: who.free, owned: who.owned, "\(who.name) log")
                Self.expectNoForeignIDs(ctl(who.user, "log").stdout, free: who.free, owned: who.owned, "\(who.name) log table")

                // simulate: the donation ticks of the instances the caller may not list are left out.
                let simulated = ctl(who.user, "--json", "simulate", "--hours", "24")
                #expect(simulated.status == 0, "\(who.name): \(simulated.stderr)")
                let ticks = simulated.object["donations"] as? [[String: Any]] ?? []
                #expect(ticks.contains { $0["instance"] as? String == owned } == who.owned, "\(who.name) simulate")
                #expect(ticks.contains { $0["instance"] as? String == free } == who.free, "\(who.name) simulate")
                #expect(ticks.allSatisfy { [owned, free].contains($0["instance"] as? String ?? "") })
                Self.expectNoForeignIDs(simulated.stdout, free: who.free, owned: who.owned, "\(who.name) simulate")
                let counts = simulated.object["counts"] as? [String: Any]
                print("privacy: \(who.name) sees \(ticks.count) donation ticks, \(log.array.count) decisions; counts \(counts ?? [:])")
            }

            // Events: each subscriber's rotation events, redacted for it.
            for watch in watches {
                let who = try #require(sees.first { $0.name == watch.name })
                try Poll.until("a rotation event with candidates for \(watch.name)") {
                    watch.events.contains { ($0["decision"] as? [String: Any])?["reason"] as? String == "betterCandidate" }
                }
                let rotations = watch.events.compactMap { $0["decision"] as? [String: Any] }
                for decision in rotations {
                    let candidates = decision["candidates"] as? [[String: Any]] ?? []
                    if !who.owned { #expect(Self.hidden(candidates, owned), "\(watch.name) event") }
                    if !who.free { #expect(Self.hidden(candidates, free), "\(watch.name) event") }
                }
                if who.owned {
                    #expect(rotations.contains { Self.donations($0["candidates"] as? [[String: Any]] ?? [], owned)?.isEmpty == false }, "\(watch.name)")
                }
                Self.expectNoForeignIDs(watch.text, free: who.free, owned: who.owned, "\(watch.name) events")
                print("privacy: \(watch.name) got \(watch.events.count) events, \(rotations.count) rotations")
            }

            // donations.list itself, for comparison: refused to the other user.
            #expect(ctl(users.other, "donations", "list").status == 1)
            #expect(ctl(users.owner, "--json", "donations", "list").array.compactMap { $0["id"] as? String }.sorted()
                == ["owned-d1", "owned-d5", "owned-d6", "owned-d7"])
        }

        /// A refused donate with a forged line in its intent type, a stack named with terminal
        /// escapes and a configuration full of controls: one log line each, no raw control byte
        /// in the log, and none in widgetctl's tables and lines.
        @Test(.needs(AuthUsers.unavailable))
        func hostileNamesForgeNoLineAndReachNoTerminal() throws {
            let fixture = try DaemonFixture()
            let users = try AuthUsers.open(for: fixture)
            defer { users.remove(after: fixture) }
            try fixture.counterWidget()
            try fixture.start(clock: "2026-01-05T09:00:00Z", arguments: ["--widgets-dir", TestPaths.repository + "/etc/widgetd/widgets.d"])
            chmod(fixture.socketPath, 0o666)

            // Refused (the other user owns nothing), and logged with the intent type.
            let refused = users.ctl(as: users.other, ["donate", Self.forgedIntent], socket: fixture.socketPath).result
            #expect(refused.status == 1, "\(refused.stderr)")
            Self.expectNoRawControls(refused.stderr, "the refusal on widgetctl's stderr")
            #expect(refused.stderr.split(separator: "\n").count == 1, "one line: \(refused.stderr)")

            // A stack with a hostile name, with two instances that rotate (a decision to log),
            // and a configuration value full of controls.
            #expect(fixture.ctl("stack", "create", Self.hostileStack).status == 0)
            let random = try fixture.add("com.example.random-number")
            let ranger = try fixture.add("com.example.emoji-rangers", "character=egghead")
            let hostileValue = "\u{1B}]0;owned\u{07}\u{9B}31m\u{202E}\u{2028}\r\u{7F}"
            let counter = try fixture.add("test.counter", "city=\(hostileValue)")
            #expect(fixture.ctl("stack", "add", Self.hostileStack, random, ranger).status == 0)
            #expect(fixture.ctl("clock", "advance", "0s").status == 0)
            #expect(fixture.ctl("--json", "log").array.contains { $0["stack"] as? String == Self.hostileStack })

            // The log: the forged text stays inside the refusal's line, escaped.
            try Poll.until("the refusal and the stack in the log") {
                fixture.log().contains("permission denied") && fixture.log().contains("stack created")
            }
            let log = fixture.log()
            Self.expectNoRawControls(log, "the daemon's log")
            let lines = log.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(!lines.contains { $0.hasPrefix("2026-11-27T09:14:00Z info widgetd stopped") }, "a forged line")
            #expect(lines.filter { $0.contains("permission denied") }.count == 1)
            let refusalLine = lines.first { $0.contains("permission denied") && $0.contains("FORGED") }
            #expect(refusalLine?.contains(#"intent_type=X\n2026-11-27T09:14:00Z info widgetd stopped FORGED\u{1B}[31m"#) == true, "\(refusalLine ?? "")")
            let created = lines.first { $0.contains("stack created") }
            #expect(created?.contains(#"\u{1B}[2J\n"#) == true, "\(created ?? "")")

            // widgetctl's human output: no raw control byte, the names on their own rows.
            for arguments in [["stack", "list"], ["list"], ["log"], ["stack", "show", Self.hostileStack], ["explain", Self.hostileStack],
                              ["configure", counter, "--set", "slot=2"]] {
                let result = fixture.ctl(arguments)
                #expect(result.status == 0, "\(arguments): \(result.stderr)")
                Self.expectNoRawControls(result.stdout + result.stderr, "widgetctl \(arguments.joined(separator: " "))")
                #expect(!(result.stdout + result.stderr).contains("\u{1B}"), "\(arguments)")
            }
            let stacks = fixture.ctl("stack", "list").stdout
            #expect(stacks.contains(#"\u{1B}[2J\n"#), "\(stacks)")
            #expect(stacks.split(separator: "\n").count == 2, "a header and one row: \(stacks)")
            let list = fixture.ctl("list").stdout
            #expect(list.contains(#"\u{1B}"#) || list.contains(#"\u001b"#), "\(list)")
            #expect(list.split(separator: "\n").count == 4, "a header and three rows: \(list)")
            // A refusal printed by widgetctl as root (a stack that does not exist) quotes the name escaped.
            let missing = fixture.ctl("stack", "show", "\u{1B}[31mnone\n")
            #expect(missing.status == 1)
            Self.expectNoRawControls(missing.stderr, "widgetctl's error")
            #expect(missing.stderr.split(separator: "\n").count == 1, "one line: \(missing.stderr)")
            // --json stays JSON: the name round-trips.
            #expect(fixture.ctl("--json", "stack", "list").array.first?["name"] as? String == Self.hostileStack)
            print("privacy: forged intent type and hostile stack name: 0 forged log lines, 0 raw control bytes in \(lines.count) log lines")
        }

        /// The journal gets the same escaped text: a field holds no raw control character, and
        /// the forged intent type adds no entry.
        @Test(.needs(AuthUsers.unavailable))
        func theJournalGetsNamesEscaped() throws {
            let journald = try JournalFixture.ensureRunning()
            defer { journald?.stop() }
            let fixture = try DaemonFixture()
            let users = try AuthUsers.open(for: fixture)
            defer { users.remove(after: fixture) }
            try fixture.start(arguments: ["--log-target", "journal"])
            chmod(fixture.socketPath, 0o666)
            // PIDs are reused and the journal outlives test runs: names of this run's own.
            let tag = String(UInt32.random(in: 0...UInt32.max), radix: 16)
            let stack = Self.hostileStack + tag
            #expect(fixture.ctl("stack", "create", stack).status == 0)
            #expect(users.ctl(as: users.other, ["donate", Self.forgedIntent + tag], socket: fixture.socketPath).result.status == 1)
            let pid = try #require(fixture.pid)
            fixture.stop()

            let entries = JournalFixture.entries(matching: ["SYSLOG_IDENTIFIER=widgetd", "_PID=\(pid)"])
            let created = try #require(entries.first { $0["MESSAGE"] as? String == "stack created" })
            #expect(created["STACK"] as? String == #"\u{1B}[2J\n"# + tag)
            let refused = try #require(entries.first { $0["MESSAGE"] as? String == "permission denied" })
            #expect(refused["INTENT_TYPE"] as? String == #"X\n2026-11-27T09:14:00Z info widgetd stopped FORGED\u{1B}[31m"# + tag)
            #expect(!entries.contains { ($0["MESSAGE"] as? String)?.contains("FORGED") == true })
            for entry in entries {
                for (key, value) in entry {
                    // journalctl -o json writes a field with control characters as an array of bytes.
                    #expect(value is String || key.hasPrefix("__"), "\(key) is not plain text: \(value)")
                    if let text = value as? String { Self.expectNoRawControls(text, "journal field \(key)") }
                }
            }
            print("privacy: \(entries.count) journal entries of the run, every field plain text")
        }

        // MARK: Helpers

        private static func intentKind(_ fixture: DaemonFixture, kind: String, intentType: String, owner: [String: String]?) throws {
            var object: [String: Any] = [
                "kind": kind, "supportedFamilies": ["systemSmall"], "provider": ["exec": ["./counter", fixture.launchLog]],
                "intent": [
                    "type": intentType, "parameters": [["name": "slot", "type": "integer"]], "supportedCombinations": [["slot"]],
                ],
            ]
            if let owner { object["owner"] = owner }
            let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
            try data.write(to: URL(fileURLWithPath: fixture.widgetsDirectory + "/" + kind + ".json"))
        }

        /// The donations of `instance`'s candidate.
        private static func donations(_ candidates: [[String: Any]], _ instance: String) -> [String]? {
            candidates.first { $0["instance"] as? String == instance }?["donations"] as? [String]
        }

        /// `instance`'s candidate has its donations emptied and marked hidden.
        private static func hidden(_ candidates: [[String: Any]], _ instance: String) -> Bool {
            guard let candidate = candidates.first(where: { $0["instance"] as? String == instance }) else { return false }
            return candidate["donationsHidden"] as? Bool == true && (candidate["donations"] as? [String]) == []
        }

        /// An explanation without its candidates' donations, as sorted JSON.
        private static func stripped(_ object: [String: Any]) -> String {
            var copy = object
            copy["candidates"] = (object["candidates"] as? [[String: Any]])?.map { candidate in
                var candidate = candidate
                candidate.removeValue(forKey: "donations")
                candidate.removeValue(forKey: "donationsHidden")
                return candidate
            }
            let data = (try? JSONSerialization.data(withJSONObject: copy, options: [.sortedKeys])) ?? Data()
            return String(decoding: data, as: UTF8.self)
        }

        /// No id or date of a donation the caller may not list.
        private static func expectNoForeignIDs(_ text: String, free: Bool, owned: Bool, _ what: String) {
            if !free {
                #expect(!text.contains("free-d"), "\(what): \(text)")
                #expect(!text.contains("2026-01-03T09:30"), "\(what): \(text)")
            }
            if !owned {
                #expect(!text.contains("owned-d"), "\(what): \(text)")
                for back in [1, 5, 6, 7] {
                    let date = ISO8601DateFormatter().string(from: ISO8601DateFormatter().date(from: "2026-01-05T09:30:00Z")!.addingTimeInterval(-Double(back) * 86400))
                    #expect(!text.contains(String(date.prefix(16))), "\(what): \(text)")
                }
            }
        }

        private static func expectNoRawControls(_ text: String, _ what: String) {
            for scalar in rawControls where text.unicodeScalars.contains(scalar) {
                Issue.record("\(what) holds a raw U+\(String(scalar.value, radix: 16, uppercase: true)): \(text.debugDescription.prefix(2000))")
            }
        }
    }
}
