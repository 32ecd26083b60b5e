import Foundation
import Testing
import WidgetdClient
@testable import WidgetIntegrationSupport

extension Integration {
    /// Smart Stacks on the running daemon with the virtual clock: relevance rotates the top,
    /// a swipe holds it, donations and their deletion move the ranking, every decision logged.
    @Suite struct SmartStacks {
        static func start(_ extra: [String] = []) throws -> DaemonFixture {
            let fixture = try DaemonFixture()
            try fixture.start(clock: "2026-01-05T09:00:00Z", arguments: ["--widgets-dir", TestPaths.repository + "/etc/widgetd/widgets.d"] + extra)
            return fixture
        }

        @Test func relevanceRotatesAUserHoldHoldsAndEveryDecisionIsLogged() throws {
            let fixture = try Self.start()
            #expect(fixture.ctl("stack", "create", "home").status == 0)
            let random = try fixture.add("com.example.random-number")
            let ranger = try fixture.add("com.example.emoji-rangers", "character=egghead")
            #expect(fixture.ctl("stack", "add", "home", random, ranger).status == 0)
            #expect(fixture.ctl("clock", "advance", "0s").status == 0)
            // Egghead at full health (relevance 100, its best) beats a widget without relevance.
            let shown = fixture.ctl("--json", "stack", "show", "home").object
            #expect(shown["top"] as? String == ranger)
            #expect(shown["instances"] as? [String] == [random, ranger])
            #expect(shown["smartRotate"] as? Bool == true)

            #expect(fixture.ctl("clock", "set", "2026-01-05T09:20:00Z").status == 0)
            #expect(fixture.ctl("stack", "swipe", "home", random).status == 0)
            let explained = fixture.ctl("--json", "explain", "home").object
            #expect(explained["top"] as? String == random)
            let candidates = explained["candidates"] as? [[String: Any]] ?? []
            let egghead = candidates.first { $0["instance"] as? String == ranger }
            #expect(egghead?["relevance"] as? Double == 0.67)  // health 67 against its best, 100
            #expect(egghead?["eligible"] as? Bool == true)
            #expect((explained["why"] as? String)?.contains("holds off until 2026-01-05T10:20:00Z") == true)

            // The hold ends at 10:20 and the stack rotates exactly then, without a periodic tick.
            #expect(fixture.ctl("clock", "advance", "2h").status == 0)
            let log = fixture.ctl("--json", "log", "--stack", "home").array
            #expect(log.map { $0["reason"] as? String } == ["betterCandidate", "heldByUserHold", "betterCandidate"])
            #expect(log.map { $0["date"] as? String } == ["2026-01-05T09:00:00Z", "2026-01-05T09:20:00Z", "2026-01-05T10:20:00Z"])
            #expect(log.map { $0["to"] as? String } == [ranger, nil, ranger])
            #expect(log.allSatisfy { ($0["candidates"] as? [Any])?.count == 2 })
            #expect(fixture.ctl("--json", "log", "--since", "2026-01-05T10:00:00Z").array.count == 1)
        }

        @Test func donationsRankAMatchingWidgetAndDeletionRemovesIt() throws {
            let fixture = try Self.start()
            let center = WidgetCenter(socketPath: fixture.socketPath)
            let small = try fixture.add("com.example.random-number", "maxNumber=10")
            let large = try fixture.add("com.example.random-number", "maxNumber=150")
            #expect(fixture.ctl("stack", "create", "numbers").status == 0)
            #expect(fixture.ctl("stack", "add", "numbers", small, large).status == 0)
            #expect(fixture.ctl("clock", "advance", "30m").status == 0)
            // The user looked at "max 150" around 09:30 on the past weekdays.
            let monday = ISO8601DateFormatter().date(from: "2026-01-05T09:30:00Z")!
            for day in [1, 2, 5, 6, 7] {
                let matched = try center.donate(
                    intentType: "RandomNumber", parameters: ["maxNumber": .integer(150)], date: monday.addingTimeInterval(-Double(day) * 86400),
                    identifier: "d\(day)", groupIdentifier: "numbers-app")
                #expect(matched == [large])
            }
            let explained = fixture.ctl("--json", "explain", "numbers").object
            let affinity = (explained["candidates"] as? [[String: Any]])?.first { $0["instance"] as? String == large }?["affinity"] as? Double
            #expect((affinity ?? 0) > 0.5)
            #expect(explained["top"] as? String == large)

            #expect(try center.deleteDonations(groupIdentifier: "numbers-app") == 5)
            // Nothing has a signal now: back to the user's choice (the first) once the dwell allows.
            #expect(fixture.ctl("clock", "advance", "15m").status == 0)
            #expect(fixture.ctl("--json", "stack", "show", "numbers").object["top"] as? String == small)
            let reasons = fixture.ctl("--json", "log", "--stack", "numbers").array.compactMap { $0["reason"] as? String }
            // The first donation alone is not enough to beat the top by the margin.
            #expect(reasons.first == "heldByMargin")
            #expect(reasons.contains("betterCandidate"))
            #expect(reasons.last == "returnToUserChoice")
        }

        /// Matched donations are kept per instance between evaluations; a configuration change
        /// matches them again.
        @Test func reconfiguringAnInstanceMatchesTheDonationsAgain() throws {
            let fixture = try Self.start()
            let center = WidgetCenter(socketPath: fixture.socketPath)
            let small = try fixture.add("com.example.random-number", "maxNumber=10")
            let large = try fixture.add("com.example.random-number", "maxNumber=150")
            #expect(fixture.ctl("stack", "create", "numbers").status == 0)
            #expect(fixture.ctl("stack", "add", "numbers", small, large).status == 0)
            #expect(fixture.ctl("clock", "advance", "30m").status == 0)
            let monday = ISO8601DateFormatter().date(from: "2026-01-05T09:30:00Z")!
            for day in [1, 2, 5] {
                _ = try center.donate(
                    intentType: "RandomNumber", parameters: ["maxNumber": .integer(150)], date: monday.addingTimeInterval(-Double(day) * 86400))
            }
            func affinity(_ id: String) -> Double {
                let candidates = fixture.ctl("--json", "explain", "numbers").object["candidates"] as? [[String: Any]]
                return candidates?.first { $0["instance"] as? String == id }?["affinity"] as? Double ?? -1
            }
            #expect(affinity(large) > 0 && affinity(small) == 0)
            #expect(fixture.ctl("configure", large, "--set", "maxNumber=10").status == 0)
            #expect(fixture.ctl("configure", small, "--set", "maxNumber=150").status == 0)
            #expect(affinity(large) == 0 && affinity(small) > 0)
        }

        @Test func smartRotateOffLeavesTheTopToTheUser() throws {
            let fixture = try Self.start()
            #expect(fixture.ctl("stack", "create", "manual", "--no-smart-rotate").status == 0)
            let random = try fixture.add("com.example.random-number")
            let ranger = try fixture.add("com.example.emoji-rangers", "character=egghead")
            #expect(fixture.ctl("stack", "add", "manual", random, ranger).status == 0)
            #expect(fixture.ctl("clock", "advance", "1h").status == 0)
            #expect(fixture.ctl("--json", "stack", "show", "manual").object["top"] as? String == random)
            #expect(fixture.ctl("--json", "log").array.isEmpty)
            #expect(fixture.ctl("stack", "smart-rotate", "manual", "on").status == 0)
            #expect(fixture.ctl("--json", "stack", "show", "manual").object["top"] as? String == ranger)
        }

        @Test func stacksAndDecisionsSurviveSIGKILL() throws {
            let fixture = try Self.start()
            let random = try fixture.add("com.example.random-number")
            #expect(fixture.ctl("stack", "create", "home").status == 0)
            let stacked = fixture.ctl(["--json", "add", "com.example.emoji-rangers", "--family", "systemSmall", "--set", "character=egghead", "--stack", "home"])
            let stackedID = try #require(stacked.object["id"] as? String)
            #expect(fixture.ctl("stack", "add", "home", random).status == 0)
            #expect(fixture.ctl("clock", "advance", "0s").status == 0)
            let before = fixture.ctl("--json", "stack", "show", "home").object
            let logBefore = fixture.ctl("--json", "log").array.count
            fixture.crash()
            try fixture.start(clock: "2026-01-05T09:00:00Z", arguments: ["--widgets-dir", TestPaths.repository + "/etc/widgetd/widgets.d"])
            let after = fixture.ctl("--json", "stack", "show", "home").object
            #expect(after["instances"] as? [String] == [stackedID, random])
            #expect(after["top"] as? String == before["top"] as? String)
            #expect(fixture.ctl("--json", "log").array.count == logBefore)
            #expect(fixture.ctl("add", "com.example.random-number", "--family", "systemSmall", "--stack", "nope").stderr.contains("no stack named 'nope'"))
        }
    }
}

extension Integration {
    @Suite struct Visibility {
        @Test func hostsReportWhatTheyShowAndItIsKept() throws {
            let fixture = try SmartStacks.start()
            let a = try fixture.add("com.example.random-number")
            let b = try fixture.add("com.example.random-number", family: "systemMedium")
            #expect(fixture.ctl("stack", "create", "home").status == 0)
            #expect(fixture.ctl("stack", "add", "home", b).status == 0)
            #expect(fixture.ctl("--json", "visible", a).object["visible"] as? [String] == [a])
            #expect(fixture.ctl("clock", "advance", "10m").status == 0)
            #expect(fixture.ctl("stack", "show", "home").status == 0)  // the host shows the top, b
            let list = fixture.ctl("--json", "list").array
            let byID = Dictionary(uniqueKeysWithValues: list.map { ($0["id"] as! String, $0) })
            #expect(byID[a]?["visible"] as? Bool == true)
            #expect(byID[a]?["lastVisible"] as? String == "2026-01-05T09:00:00Z")
            #expect(byID[b]?["visible"] as? Bool == false)
            #expect(byID[b]?["lastVisible"] as? String == "2026-01-05T09:10:00Z")
            #expect(fixture.ctl("visible", "nope").status == 1)
            fixture.crash()
            try fixture.start(clock: "2026-01-05T09:20:00Z", arguments: ["--widgets-dir", TestPaths.repository + "/etc/widgetd/widgets.d"])
            let after = fixture.ctl("--json", "list").array.first { $0["id"] as? String == a }
            #expect(after?["lastVisible"] as? String == "2026-01-05T09:00:00Z")
        }
    }

    @Suite struct StackMembership {
        @Test func removingTheTopInstanceUpdatesTheStackInTheSameTransaction() throws {
            let fixture = try SmartStacks.start()
            let x = try fixture.add("com.example.random-number")
            let y = try fixture.add("com.example.random-number", family: "systemMedium")
            #expect(fixture.ctl("stack", "create", "s").status == 0)
            #expect(fixture.ctl("stack", "add", "s", x, y).status == 0)
            #expect(fixture.ctl("--json", "stack", "show", "s").object["top"] as? String == x)
            #expect(fixture.ctl("remove", x).status == 0)
            fixture.crash()
            try fixture.start(clock: "2026-01-05T09:00:00Z", arguments: ["--widgets-dir", TestPaths.repository + "/etc/widgetd/widgets.d"])
            let shown = fixture.ctl("--json", "stack", "show", "s").object
            #expect(shown["instances"] as? [String] == [y])
            #expect(shown["top"] as? String == y)
        }
    }

    @Suite struct Watch {
        @Test func watchStreamsARotationAndOtherEvents() throws {
            let fixture = try SmartStacks.start()
            let log = fixture.directory + "/watch.log"
            let watch = try fixture.launch(TestPaths.widgetctl, ["--socket", fixture.socketPath, "--json", "watch"], log: log)
            defer {
                kill(watch.processIdentifier, SIGTERM)
                watch.waitUntilExit()
            }
            try Poll.until("widgetctl watch to subscribe") {
                (fixture.ctl("--json", "status").object["subscribers"] as? Int ?? 0) >= 1
            }
            #expect(fixture.ctl("stack", "create", "home").status == 0)
            let first = try fixture.add("com.example.random-number")
            let ranger = try fixture.add("com.example.emoji-rangers", "character=egghead")
            #expect(fixture.ctl("stack", "add", "home", first, ranger).status == 0)
            // Past 10:00, when the random number's second entry becomes current.
            #expect(fixture.ctl("clock", "advance", "61m").status == 0)
            var events: [[String: Any]] = []
            for _ in 0..<250 {
                let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
                events = text.split(separator: "\n").compactMap {
                    ((try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any])?["params"] as? [String: Any]
                }
                if events.contains(where: { $0["type"] as? String == "rotation" }) && events.contains(where: { $0["type"] as? String == "entryChange" }) { break }
                usleep(20_000)
            }
            let rotation = events.first { $0["type"] as? String == "rotation" }
            #expect((rotation?["decision"] as? [String: Any])?["to"] as? String == ranger)
            #expect((rotation?["decision"] as? [String: Any])?["stack"] as? String == "home")
            #expect(events.contains { $0["type"] as? String == "stack" })
            #expect(events.contains { $0["type"] as? String == "reload" })
            #expect(events.contains { $0["type"] as? String == "entryChange" && $0["instance"] as? String == ranger })
        }
    }
}

extension Integration {
    /// The relevance rules of docs/smart-stacks.md on the running daemon, with pushed timelines.
    @Suite struct RelevanceRules {
        static func push(_ fixture: DaemonFixture, _ id: String, _ entries: [(String, Double?, Double)]) {
            let items = entries.map { date, score, duration in
                let relevance = score.map { #","relevance":{"score":\#($0),"duration":\#(duration)}"# } ?? ""
                return #"{"date":"\#(date)","content":null\#(relevance)}"#
            }
            let result = fixture.ctl(["push", id, "-"], stdin: #"{"entries":[\#(items.joined(separator: ","))],"policy":"never"}"#)
            #expect(result.status == 0, "\(result.stderr)")
        }

        static func candidates(_ fixture: DaemonFixture) -> [String: [String: Any]] {
            let list = fixture.ctl("--json", "explain", "s").object["candidates"] as? [[String: Any]] ?? []
            return Dictionary(uniqueKeysWithValues: list.map { ($0["instance"] as! String, $0) })
        }

        @Test func scaleLapsesIneligibilityAndDwellOnTheDaemon() throws {
            let fixture = try DaemonFixture()
            try fixture.descriptor("test.push", exec: nil)
            try fixture.start(clock: "2026-01-05T09:00:00Z")
            let a = try fixture.add("test.push")
            let b = try fixture.add("test.push")
            #expect(fixture.ctl("stack", "create", "s").status == 0)
            #expect(fixture.ctl("stack", "add", "s", a, b).status == 0)
            // A scores 1 then 2; B scores 1000 then 2000; A's 10:00 entry carries no relevance.
            Self.push(fixture, a, [("2026-01-05T09:00:00Z", 1, 0), ("2026-01-05T09:30:00Z", 2, 0), ("2026-01-05T10:00:00Z", nil, 0)])
            Self.push(fixture, b, [("2026-01-05T09:00:00Z", 1000, 0), ("2026-01-05T09:30:00Z", 2000, 0)])
            var ranked = Self.candidates(fixture)
            #expect(ranked[a]?["relevance"] as? Double == 0.5)  // scale does not matter
            #expect(ranked[b]?["relevance"] as? Double == 0.5)

            #expect(fixture.ctl("clock", "set", "2026-01-05T10:05:00Z").status == 0)
            ranked = Self.candidates(fixture)
            #expect(ranked[a]?["score"] as? Double == 2)  // duration 0 holds; the bare entry changes nothing
            #expect(ranked[a]?["relevanceSince"] as? String == "2026-01-05T09:30:00Z")

            Self.push(fixture, b, [("2026-01-05T10:05:00Z", 3000, 600)])
            #expect(Self.candidates(fixture)[b]?["relevanceUntil"] as? String == "2026-01-05T10:15:00Z")
            #expect(fixture.ctl("clock", "set", "2026-01-05T10:15:00Z").status == 0)
            #expect(Self.candidates(fixture)[b]?["score"] is NSNull || Self.candidates(fixture)[b]?["score"] == nil)  // lapsed

            // A score <= 0 is never rotated in: B (positive) goes on top, A cannot come back.
            Self.push(fixture, a, [("2026-01-05T10:15:00Z", -1, 0)])
            Self.push(fixture, b, [("2026-01-05T10:15:00Z", 3000, 0)])
            #expect(Self.candidates(fixture)[a]?["eligible"] as? Bool == false)
            #expect(fixture.ctl("--json", "stack", "show", "s").object["top"] as? String == b)

            // A recovers at 10:20 (its best in the window: rank 1), but B has been on top only
            // since 10:15: held by the dwell, and rotated exactly when it ends, at 10:30.
            Self.push(fixture, a, [("2026-01-05T10:20:00Z", 2, 0)])
            Self.push(fixture, b, [("2026-01-05T10:20:00Z", 1, 0)])
            #expect(fixture.ctl("clock", "advance", "30m").status == 0)
            let log = fixture.ctl("--json", "log", "--stack", "s").array
            let tail = log.suffix(2).map { ($0["reason"] as? String ?? "", $0["date"] as? String ?? "", $0["to"] as? String) }
            #expect(tail.map(\.0) == ["heldByDwell", "betterCandidate"])
            #expect(tail.map(\.1) == ["2026-01-05T10:20:00Z", "2026-01-05T10:30:00Z"])
            #expect(tail.last?.2 == a)
            #expect(!log.contains { $0["to"] as? String == a && ($0["date"] as? String ?? "") < "2026-01-05T10:30:00Z" && ($0["date"] as? String ?? "") >= "2026-01-05T10:15:00Z" })
        }
    }
}

extension Integration {
    @Suite struct RotationLimits {
        @Test func affinityFollowsTheTimeOfDayOfPastWeeks() throws {
            let fixture = try DaemonFixture()
            try fixture.start(clock: "2026-01-26T12:00:00Z", arguments: ["--widgets-dir", TestPaths.repository + "/etc/widgetd/widgets.d"])
            let id = try fixture.add("com.example.random-number", "maxNumber=150")
            #expect(fixture.ctl("stack", "create", "s").status == 0)
            #expect(fixture.ctl("stack", "add", "s", id).status == 0)
            // Three weeks of weekday lunchtime donations (2026-01-05 is a Monday).
            for week in 0..<3 {
                for day in 0..<5 {
                    let date = String(format: "2026-01-%02dT12:%02d:00Z", 5 + week * 7 + day, (day * 7) % 20)
                    #expect(fixture.ctl("donate", "RandomNumber", "--set", "maxNumber=150", "--at", date).status == 0)
                }
            }
            func affinity() -> Double {
                ((fixture.ctl("--json", "explain", "s").object["candidates"] as? [[String: Any]])?.first?["affinity"] as? Double) ?? -1
            }
            let noon = affinity()
            #expect(fixture.ctl("clock", "set", "2026-01-26T19:00:00Z").status == 0)
            let evening = affinity()
            #expect(noon > 0.5)
            #expect(evening < 0.05)
            #expect(fixture.ctl("donations", "delete", "--all").status == 0)
            #expect(fixture.ctl("clock", "set", "2026-01-27T12:00:00Z").status == 0)
            #expect(affinity() == 0)
        }

        @Test func theHourlyCapHoldsARotationUntilTheHourHasPassed() throws {
            let fixture = try DaemonFixture()
            try fixture.descriptor("test.push", exec: nil)
            let config = fixture.directory + "/widgetd.conf"
            try "[rotation]\nhourly-cap = 1\nmin-dwell = 0s\n".write(toFile: config, atomically: true, encoding: .utf8)
            try fixture.start(clock: "2026-01-05T09:00:00Z", arguments: ["--config", config])
            let a = try fixture.add("test.push")
            let b = try fixture.add("test.push")
            #expect(fixture.ctl("stack", "create", "s").status == 0)
            #expect(fixture.ctl("stack", "add", "s", a, b).status == 0)
            RelevanceRules.push(fixture, b, [("2026-01-05T09:00:00Z", 5, 0)])  // b rotates in: 1 this hour
            #expect(fixture.ctl("clock", "set", "2026-01-05T09:10:00Z").status == 0)
            RelevanceRules.push(fixture, a, [("2026-01-05T09:10:00Z", 5, 0)])
            RelevanceRules.push(fixture, b, [("2026-01-05T09:10:00Z", 1, 0)])  // a now ranks best
            #expect(fixture.ctl("clock", "advance", "1h").status == 0)
            let log = fixture.ctl("--json", "log", "--stack", "s").array.map { ($0["reason"] as? String ?? "", $0["date"] as? String ?? "") }
            #expect(log.map(\.0) == ["betterCandidate", "heldByCap", "betterCandidate"])
            #expect(log.map(\.1) == ["2026-01-05T09:00:00Z", "2026-01-05T09:10:00Z", "2026-01-05T10:00:00Z"])
        }
    }
}
