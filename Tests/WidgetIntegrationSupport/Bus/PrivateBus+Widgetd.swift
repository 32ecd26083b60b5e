import Foundation

extension PrivateBus {
    /// A private bus in `fixture`'s folder and widgetd on it (`--dbus session` or `system`), with the example
    /// widgets; returns once widgetd owns its name there.
    static func withWidgetd(
        _ fixture: DaemonFixture, clock: String? = "2026-01-05T09:00:00Z", arguments: [String] = [], policy: Policy = .open
    ) throws -> PrivateBus {
        let bus = try PrivateBus(in: fixture.directory + "/dbus", policy: policy)
        try bus.start(widgetd: fixture, clock: clock, arguments: arguments)
        return bus
    }

    /// Starts widgetd on this bus and waits until it owns its name.
    func start(widgetd fixture: DaemonFixture, clock: String? = "2026-01-05T09:00:00Z", arguments: [String] = []) throws {
        try fixture.start(
            clock: clock, arguments: ["--widgets-dir", TestPaths.repository + "/etc/widgetd/widgets.d", "--dbus", busKind] + arguments,
            environment: environment.merging(["STATE_DIRECTORY": fixture.stateDirectory]) { $1 })
        try Poll.until("widgetd owning \(Self.name) on the test's bus") { widgetdOwnsName }
    }

    /// `busctl --json=short call`'s `data`: the out-args as JSON.
    func callJSON(_ method: String, _ signature: String = "", _ args: [String] = []) throws -> [Any] {
        let result = busctl(["--json=short", "call", Self.name, Self.path, Self.name, method] + (signature.isEmpty ? [] : [signature] + args))
        guard result.status == 0, let object = result.object["data"] as? [Any] else {
            throw FixtureError("busctl call \(method) failed (\(result.status)): \(result.stderr)\(result.stdout)")
        }
        return object
    }

    /// Waits until `file` (a monitor's output) holds every one of `lines`.
    static func waitFor(_ lines: [String], in file: String, within seconds: Double = 30) throws {
        func text() -> String { (try? String(contentsOfFile: file, encoding: .utf8)) ?? "" }
        do {
            try Poll.until("\(lines) in \(file)", within: seconds) { lines.allSatisfy(text().contains) }
        } catch {
            throw FixtureError("\(error); missing: \(lines.filter { !text().contains($0) }); it holds:\n\(text())")
        }
    }
}
