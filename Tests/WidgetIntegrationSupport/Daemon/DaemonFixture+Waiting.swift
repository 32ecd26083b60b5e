import Foundation

extension DaemonFixture {
    /// Polls `condition` until it holds; past `timeout` seconds throws, naming what it waited for.
    /// Timed on the monotonic clock, which a step of the wall clock does not move.
    func waitUntil(_ what: String, timeout: Double = 20, _ condition: () -> Bool) throws {
        let deadline = ContinuousClock.now + .milliseconds(Int(timeout * 1000))
        while !condition() {
            guard ContinuousClock.now < deadline else { throw FixtureError("waited \(Int(timeout)) s for \(what)") }
            usleep(20_000)
        }
    }

    /// Lines of the daemon's log that contain every one of `parts`.
    func logLines(containing parts: String...) -> [String] {
        log().split(separator: "\n").map(String.init).filter { line in parts.allSatisfy { line.contains($0) } }
    }

    /// The kinds `widgetctl widgets` lists, in order.
    func kinds() -> [String] {
        (ctl("--json", "widgets").object["widgets"] as? [[String: Any]] ?? []).compactMap { $0["kind"] as? String }
    }
}
