import Foundation

/// A daemon with `[remote]` pointing at a fresh broker, started and subscribed.
final class RemoteSetup {
    static let prefix = "test/fleet"
    static let timeline = #"{"entries":[{"date":"2026-01-05T08:00:00Z","content":"%@"}],"policy":"never"}"#

    let fixture: DaemonFixture
    let broker: MosquittoBroker
    let config: String

    init(
        remote extra: String = "", unixSocket: Bool = false, login: (user: String, password: String)? = nil,
        tls: Bool = false, start: Bool = true, prepare: (DaemonFixture) throws -> Void = { _ in }
    ) throws {
        fixture = try DaemonFixture()
        broker = try MosquittoBroker(in: fixture.directory + "/broker", unixSocket: unixSocket, login: login, tls: tls)
        config = fixture.directory + "/widgetd.conf"
        try """
            [budget]
            min-spacing = 0
            [remote]
            broker = "\(broker.url)"
            topic-prefix = \(RemoteSetup.prefix)
            client-id = widgetd-test-\(getpid())-\(broker.port)
            \(broker.caFile.map { "ca-file = " + $0 } ?? "")
            \(extra)
            """.write(toFile: config, atomically: true, encoding: .utf8)
        try prepare(fixture)
        if start { try self.start() }
    }

    /// Starts widgetd and waits until its subscriptions are in place (the third is
    /// acknowledged last), so that what is published next reaches it.
    func start() throws {
        let before = subscribedCount
        try fixture.start(arguments: ["--config", config])
        try waitSubscribed(after: before)
    }

    var subscribedCount: Int { fixture.logLines(containing: "MQTT subscribed", "topic=\(RemoteSetup.prefix)/donate").count }

    func waitSubscribed(after count: Int) throws {
        try fixture.waitUntil("widgetd subscribed to the broker", timeout: 60) { subscribedCount > count }
    }

    func push(_ instance: String, _ content: String) throws {
        try broker.publish("\(RemoteSetup.prefix)/push/\(instance)", String(format: RemoteSetup.timeline, content))
    }

    /// The content of the instance's current entry.
    func content(_ instance: String) -> String? {
        let entries = fixture.ctl("--json", "timeline", instance).object["entries"] as? [[String: Any]]
        return entries?.first?["content"] as? String
    }

    func waitContent(_ instance: String, _ content: String, timeout: Double = 60) throws {
        try fixture.waitUntil("timeline of \(instance) to show \(content)", timeout: timeout) { self.content(instance) == content }
    }

    func donationIDs() -> [String] {
        fixture.ctl("--json", "donations", "list").array.compactMap { $0["id"] as? String }
    }

    /// Budgeted reloads the instance has used, after letting due reloads run.
    func budgetUsed(_ instance: String) -> Int? {
        _ = fixture.ctl("clock", "advance", "0s")
        return fixture.ctl("--json", "budget", instance).object["used"] as? Int
    }

    func refusals(_ topic: String) -> [String] {
        fixture.logLines(containing: "remote message refused", "topic=\(topic)")
    }
}
