import Foundation
@testable import WidgetIntegrationSupport

/// `widgetctl --json watch` into a file, for the clock-step tests: the events a host
/// subscribed to would see, read back with a deadline.
final class ClockStepWatch {
    let fixture: DaemonFixture
    let path: String
    private let process: ChildProcess

    init(_ fixture: DaemonFixture) throws {
        self.fixture = fixture
        path = fixture.directory + "/clock-watch.log"
        process = try fixture.launch(TestPaths.widgetctl, ["--socket", fixture.socketPath, "--json", "watch"], log: path)
        try Poll.until("widgetctl watch to subscribe") {
            (fixture.ctl("--json", "status").object["subscribers"] as? Int ?? 0) >= 1
        }
    }

    deinit {
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
    }

    /// Every event so far, oldest first (the `params` of each notification).
    func events() -> [[String: Any]] {
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap {
            ((try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any])?["params"] as? [String: Any]
        }
    }

    func events(_ type: String, instance: String? = nil) -> [[String: Any]] {
        events().filter { $0["type"] as? String == type && (instance == nil || $0["instance"] as? String == instance) }
    }

    /// Waits until `done` holds for the events (at most `timeout` seconds); the last reading.
    @discardableResult
    func wait(timeout: Double = 30, until done: ([[String: Any]]) -> Bool) -> [[String: Any]] {
        // Monotonic: the wall clock is stepped while this waits.
        let deadline = ContinuousClock.now + .milliseconds(Int(timeout * 1000))
        var seen = events()
        while !done(seen) && ContinuousClock.now < deadline {
            usleep(20_000)
            seen = events()
        }
        return seen
    }
}
