import Foundation
import Testing
@testable import WidgetIntegrationSupport
@testable import WidgetTestSupport

extension Integration {
    /// Remote updates through a real mosquitto broker (docs/remote.md): every kind of message
    /// applied, nothing the broker counted as delivered lost to a SIGKILL, a broker restart
    /// survived, malformed messages refused, and the socket's authorization rules applied
    /// through the configured identity.
    @Suite(.needs(MosquittoBroker.unavailable))
    struct RemoteUpdates {
        @Test func everyKindOfMessageIsApplied() throws {
            let setup = try RemoteSetup { fixture in
                try fixture.counterWidget()
                try fixture.descriptor("test.pushed", exec: nil, intent: DaemonFixture.testIntent)
            }
            let fixture = setup.fixture
            let counter = try fixture.add("test.counter")
            let pushed = try fixture.add("test.pushed")
            #expect(fixture.ctl("clock", "advance", "30s").status == 0)
            #expect(setup.budgetUsed(counter) == 0)

            try setup.broker.publish("\(RemoteSetup.prefix)/reload", #"{"kinds": ["test.counter"]}"#)
            try fixture.waitUntil("a remote reload of the kind") { setup.budgetUsed(counter) == 1 }
            try setup.broker.publish("\(RemoteSetup.prefix)/reload", #"{"all": true}"#)
            try fixture.waitUntil("a remote reload of all") { setup.budgetUsed(counter) == 2 }

            try setup.push(pushed, "remote")
            try setup.waitContent(pushed, "remote")

            try setup.broker.publish(
                "\(RemoteSetup.prefix)/donate", #"{"intentType": "TestConfiguration", "parameters": {"slot": 1}, "id": "d1"}"#)
            try fixture.waitUntil("the remote donation") { setup.donationIDs() == ["d1"] }
            #expect(fixture.logLines(containing: "remote message refused").isEmpty, "\(fixture.log())")
        }

        @Test func malformedMessagesAreRefusedLoggedAndChangeNothing() throws {
            let setup = try RemoteSetup { fixture in
                try fixture.counterWidget()
                try fixture.descriptor("test.pushed", exec: nil, intent: DaemonFixture.testIntent)
            }
            let fixture = setup.fixture
            let counter = try fixture.add("test.counter")
            let pushed = try fixture.add("test.pushed")
            #expect(fixture.ctl("clock", "advance", "30s").status == 0)
            try setup.push(pushed, "before")
            try setup.waitContent(pushed, "before")
            let used = setup.budgetUsed(counter)

            let reload = "\(RemoteSetup.prefix)/reload"
            let donate = "\(RemoteSetup.prefix)/donate"
            try setup.broker.publish(reload, "{not json")
            try setup.broker.publish(reload, #"{"kinds": ["test.nope"]}"#)
            try setup.broker.publish("\(RemoteSetup.prefix)/push/w-nope", String(format: RemoteSetup.timeline, "ghost"))
            try setup.broker.publish("\(RemoteSetup.prefix)/push/\(pushed)", #"{"entries": "none"}"#)
            try setup.broker.publish(donate, #"{"parameters": {}}"#)
            try setup.broker.publish("\(RemoteSetup.prefix)/push/\(pushed)", "")
            // Messages are applied in order: once the marker shows, the rest were handled.
            try setup.push(pushed, "marker")
            try setup.waitContent(pushed, "marker")

            #expect(setup.refusals(reload).count == 2, "\(fixture.log())")
            #expect(setup.refusals("\(RemoteSetup.prefix)/push/w-nope").count == 1)
            #expect(setup.refusals("\(RemoteSetup.prefix)/push/\(pushed)").count == 2)
            #expect(setup.refusals(donate).count == 1)
            #expect(fixture.logLines(containing: "remote message refused", "reason=").count == 6)
            #expect(setup.donationIDs().isEmpty)
            #expect(setup.budgetUsed(counter) == used)
            // Refused messages were acknowledged: after a restart nothing comes back.
            #expect(fixture.stop() == 0)
            try setup.start()
            try setup.push(pushed, "after")
            try setup.waitContent(pushed, "after")
            #expect(fixture.logLines(containing: "remote message refused", "reason=").count == 6, "\(fixture.log())")
        }

        /// SIGKILL as a crash; SIGTERM stops widgetd while a message is being applied.
        @Test(arguments: [SIGKILL, SIGTERM])
        func aKillMidStreamLosesNothingTheBrokerDelivered(signal: Int32) throws {
            let setup = try RemoteSetup { fixture in
                try fixture.descriptor("test.pushed", exec: nil, intent: DaemonFixture.testIntent)
            }
            let fixture = setup.fixture
            let count = 300
            let ids = (0..<count).map { "d\($0)" }
            try setup.broker.publish(
                "\(RemoteSetup.prefix)/donate",
                ids.map { #"{"intentType": "TestConfiguration", "parameters": {"slot": 1}, "id": "\#($0)"}"# })
            // The broker holds them all now; kill widgetd while it works through them.
            try fixture.waitUntil("widgetd applying the stream", timeout: 60) {
                fixture.logLines(containing: "remote update applied").count >= 5
            }
            if signal == SIGKILL {
                fixture.crash()
            } else {
                #expect(fixture.stop() == 0, "\(fixture.log())")
            }
            let appliedBeforeKill = fixture.logLines(containing: "remote update applied").count
            try setup.start()
            try fixture.waitUntil("every donation after the restart", timeout: 120) { Set(setup.donationIDs()).count == count }
            let stored = setup.donationIDs()
            // Delivery is at least once: a message committed but not yet acknowledged at the
            // kill comes again, and is known by its id, so every donation is stored once.
            #expect(Set(stored) == Set(ids))
            #expect(stored.count == count)
            #expect(appliedBeforeKill < count, "the stream ended before the kill; the test proved less")
        }

        @Test func aBrokerRestartAndADaemonRestartAreSurvived() throws {
            let setup = try RemoteSetup { fixture in
                try fixture.descriptor("test.pushed", exec: nil)
            }
            let fixture = setup.fixture
            let pushed = try fixture.add("test.pushed")
            try setup.push(pushed, "one")
            try setup.waitContent(pushed, "one")

            let subscribed = setup.subscribedCount
            setup.broker.stop()
            try fixture.waitUntil("widgetd to notice the broker is gone") {
                !fixture.logLines(containing: "MQTT connection lost").isEmpty
            }
            try setup.broker.start()
            try setup.waitSubscribed(after: subscribed)
            try setup.push(pushed, "two")
            try setup.waitContent(pushed, "two")

            // Published while widgetd is down: the persistent session keeps it for widgetd.
            #expect(fixture.stop() == 0)
            try setup.push(pushed, "three")
            try setup.start()
            try setup.waitContent(pushed, "three")
        }

        @Test func aBrokerOnAUnixSocket() throws {
            let setup = try RemoteSetup(unixSocket: true) { fixture in
                try fixture.descriptor("test.pushed", exec: nil)
            }
            let pushed = try setup.fixture.add("test.pushed")
            try setup.push(pushed, "local")
            try setup.waitContent(pushed, "local")
            #expect(!setup.fixture.logLines(containing: "remote updates on", "broker=unix").isEmpty, "\(setup.fixture.log())")
        }

        @Test func aBrokerDownAtStartIsReachedLater() throws {
            let setup = try RemoteSetup(start: false) { fixture in
                try fixture.descriptor("test.pushed", exec: nil)
            }
            let fixture = setup.fixture
            setup.broker.stop()
            // widgetd starts (and reports ready) without its broker, and keeps trying.
            try fixture.start(arguments: ["--config", setup.config])
            let pushed = try fixture.add("test.pushed")
            try setup.broker.start()
            try setup.waitSubscribed(after: 0)
            try setup.push(pushed, "late")
            try setup.waitContent(pushed, "late")
        }

        @Test func publishesStacksRetainedAndEvents() throws {
            let setup = try RemoteSetup(remote: "publish = true") { fixture in
                try fixture.descriptor("test.pushed", exec: nil)
            }
            let fixture = setup.fixture
            let first = try fixture.add("test.pushed")
            let second = try fixture.add("test.pushed")
            let events = fixture.directory + "/events.out"
            let watcher = try setup.broker.subscriber("\(RemoteSetup.prefix)/state/events", output: events)
            defer { kill(watcher.processIdentifier, SIGTERM) }
            try fixture.waitUntil("mosquitto_sub subscribed") { MosquittoBroker.subscribed(events) }

            #expect(fixture.ctl("stack", "create", "home/desk").status == 0)
            #expect(fixture.ctl("stack", "add", "home/desk", first, second).status == 0)
            #expect(fixture.ctl("stack", "swipe", "home/desk", second).status == 0)
            // The state is published after the change is answered: read the retained message
            // until it is the swiped one.
            var retained = ""
            var stack: [String: Any]?
            try fixture.waitUntil("the stack's retained state with the swiped top") {
                retained = (try? setup.broker.retained("\(RemoteSetup.prefix)/state/stacks/home%2Fdesk", within: 2)) ?? ""
                stack = (try? JSONSerialization.jsonObject(with: Data(retained.utf8))) as? [String: Any]
                return stack?["top"] as? String == second
            }
            #expect(stack?["name"] as? String == "home/desk", "\(retained)")
            try fixture.waitUntil("the stack events on the broker") {
                ((try? String(contentsOfFile: events, encoding: .utf8)) ?? "").contains(#""type":"stack""#)
            }

            // Every connection publishes the stacks whole: what the broker lost comes back.
            #expect(fixture.stop() == 0)
            try setup.broker.clearRetained("\(RemoteSetup.prefix)/state/stacks/home%2Fdesk")
            try setup.start()
            #expect(try setup.broker.retained("\(RemoteSetup.prefix)/state/stacks/home%2Fdesk").contains(second))
        }

        @Test func aBrokerThatRequiresALogin() throws {
            let passwordFile = temporaryDirectory() + "/mqtt-password"
            defer { try? FileManager.default.removeItem(atPath: (passwordFile as NSString).deletingLastPathComponent) }
            try "wrong\n".write(toFile: passwordFile, atomically: true, encoding: .utf8)
            let setup = try RemoteSetup(
                remote: "username = kiosk\npassword-file = \(passwordFile)", login: ("kiosk", "s3cret pass"), start: false
            ) { fixture in
                try fixture.descriptor("test.pushed", exec: nil)
            }
            let fixture = setup.fixture
            // A wrong password: refused and logged, and widgetd runs on.
            try fixture.start(arguments: ["--config", setup.config])
            try fixture.waitUntil("the broker refusing the login") {
                !fixture.logLines(containing: "MQTT broker refused the connection").isEmpty
            }
            #expect(fixture.stop() == 0)
            #expect(!fixture.log().contains("wrong"), "the password must not be logged")

            try "s3cret pass\n".write(toFile: passwordFile, atomically: true, encoding: .utf8)
            try setup.start()
            let pushed = try fixture.add("test.pushed")
            try setup.push(pushed, "logged in")
            try setup.waitContent(pushed, "logged in")
        }

        @Test func aBrokerOverTLS() throws {
            let setup = try RemoteSetup(tls: true) { fixture in
                try fixture.descriptor("test.pushed", exec: nil)
            }
            let pushed = try setup.fixture.add("test.pushed")
            try setup.push(pushed, "secure")
            try setup.waitContent(pushed, "secure")
        }

        @Test func anIdleSessionWakesNoThread() throws {
            // The keepalive is the only periodic wake-up a connected session adds: set far
            // beyond the test, nothing at all may wake.
            let setup = try RemoteSetup(remote: "keepalive = 18h") { fixture in
                try fixture.descriptor("test.pushed", exec: nil)
            }
            let fixture = setup.fixture
            let pushed = try fixture.add("test.pushed")
            try setup.push(pushed, "settled")
            try setup.waitContent(pushed, "settled")
            let pid = try #require(fixture.pid)
            let previous = try ThreadSwitches.settled(pid)
            usleep(3_000_000)
            let woken = previous.wakeUps(until: ThreadSwitches(pid))
            #expect(woken.isEmpty, "threads woke with nothing due: \(woken)")
            #expect(previous.threads.values.contains { $0.name == "widgetd-mqtt" }, "\(previous.threads)")
        }

        @Test(arguments: [
            ("user = widgetd-test-nobody-such", "no user named 'widgetd-test-nobody-such'"),
            ("username = kiosk\npassword-file = /nonexistent/mqtt-password", "cannot read /nonexistent/mqtt-password"),
        ])
        func anUnusableRemoteSettingStopsTheStartWith78(setting: String, message: String) throws {
            let setup = try RemoteSetup(remote: setting, start: false)
            let fixture = setup.fixture
            let process = try fixture.launch(
                TestPaths.widgetd,
                ["--socket", fixture.socketPath, "--state-dir", fixture.stateDirectory, "--widgets-dir", fixture.widgetsDirectory,
                 "--log-target", "stderr", "--config", setup.config])
            process.waitUntilExit(within: 60)
            #expect(process.terminationStatus == 78, "\(fixture.log())")
            #expect(fixture.log().contains(message), "\(fixture.log())")
        }

        @Test(.needs(StorageMount.unavailable))
        func aMessageThatCannotBeStoredComesAgainUntilItIs() throws {
            let setup = try RemoteSetup(start: false) { fixture in
                try fixture.descriptor("test.pushed", exec: nil)
            }
            let fixture = setup.fixture
            let disk = try StorageMount(tmpfsAt: fixture.stateDirectory, size: "512k")
            defer {
                fixture.crash()
                disk.unmount()
            }
            try setup.start()
            let pushed = try fixture.add("test.pushed")
            try setup.push(pushed, "before")
            try setup.waitContent(pushed, "before")

            _ = disk.fill()
            try setup.push(pushed, "stored later")
            try fixture.waitUntil("the message refused for now", timeout: 60) {
                fixture.logLines(containing: "remote message not applied; the broker will send it again").count >= 2
            }
            #expect(setup.content(pushed) == "before")
            #expect(fixture.logLines(containing: "remote message refused").isEmpty, "\(fixture.log())")

            disk.free()
            try setup.waitContent(pushed, "stored later", timeout: 120)
        }

        @Test func remoteMessagesActAsTheConfiguredIdentity() throws {
            // System accounts every Debian has: the identity owns one kind, `daemon` another.
            let setup = try RemoteSetup(remote: "user = nobody") { fixture in
                for (kind, owner) in [("remote.mine", "nobody"), ("remote.theirs", "daemon")] {
                    let object: [String: Any] = [
                        "kind": kind, "supportedFamilies": ["systemSmall"], "owner": ["user": owner],
                        "intent": ["type": kind == "remote.mine" ? "MineIntent" : "TheirsIntent", "parameters": [["name": "slot", "type": "integer"]]],
                    ]
                    let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
                    try data.write(to: URL(fileURLWithPath: fixture.widgetsDirectory + "/" + kind + ".json"))
                }
            }
            let fixture = setup.fixture
            let mine = try fixture.add("remote.mine")
            let theirs = try fixture.add("remote.theirs")

            try setup.push(theirs, "intruder")
            try setup.broker.publish("\(RemoteSetup.prefix)/reload", #"{"kinds": ["remote.theirs"]}"#)
            try setup.broker.publish("\(RemoteSetup.prefix)/donate", #"{"intentType": "TheirsIntent", "id": "t1"}"#)
            try setup.push(mine, "owned")
            try setup.waitContent(mine, "owned")
            #expect(setup.content(theirs) == nil)
            #expect(setup.donationIDs().isEmpty)
            let refused = fixture.logLines(containing: "remote message refused", "permission denied")
            #expect(refused.count == 3, "\(fixture.log())")
            #expect(fixture.logLines(containing: "permission denied", "uid=65534").count >= 3)
            try setup.broker.publish("\(RemoteSetup.prefix)/donate", #"{"intentType": "MineIntent", "id": "m1"}"#)
            try fixture.waitUntil("the owner's donation") { setup.donationIDs() == ["m1"] }
        }

        @Test func aRemoteReloadBeyondTheLimitIsDeferredDurably() throws {
            let setup = try RemoteSetup(remote: "reload-limit = 1") { fixture in
                try fixture.counterWidget()
                try fixture.descriptor("test.pushed", exec: nil)
            }
            let fixture = setup.fixture
            let counter = try fixture.add("test.counter")
            let pushed = try fixture.add("test.pushed")
            #expect(fixture.ctl("clock", "advance", "30s").status == 0)
            let reload = #"{"kinds": ["test.counter"]}"#
            try setup.broker.publish("\(RemoteSetup.prefix)/reload", reload)
            try fixture.waitUntil("the first remote reload") { setup.budgetUsed(counter) == 1 }
            try setup.broker.publish("\(RemoteSetup.prefix)/reload", reload)
            try setup.broker.publish("\(RemoteSetup.prefix)/reload", reload)
            try fixture.waitUntil("the deferral") { fixture.logLines(containing: "remote reload deferred").count == 2 }
            #expect(setup.budgetUsed(counter) == 1)

            // The deferral is on disk before the message is acknowledged, and survives a restart.
            let file = fixture.stateDirectory + "/remote-reloads.json"
            #expect(fixture.stop() == 0)
            let saved = (try? String(contentsOfFile: file, encoding: .utf8)) ?? ""
            #expect(saved.contains("deferred") && saved.contains("test.counter"), "\(saved)")
            try setup.start()
            #expect(fixture.ctl("clock", "advance", "2d").status == 0)
            // On the virtual clock the next message lets the due deferral run (first).
            try setup.push(pushed, "tick")
            try setup.waitContent(pushed, "tick")
            #expect(fixture.logLines(containing: "remote reload released", "target=test.counter").count == 1, "\(fixture.log())")
            #expect(fixture.logLines(containing: "remote message refused").isEmpty)
        }
    }
}
