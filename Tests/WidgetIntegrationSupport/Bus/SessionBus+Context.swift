import Foundation

extension SessionBus {
    /// `widgetctl --json context`.
    func context() -> [String: Any] {
        fixture.ctl("--json", "context").object
    }

    /// A session value `context` shows (`session`, `idle`, `power`, `power-profile`,
    /// `headphones`, `location`); nil while unknown.
    func value(_ name: String) -> String? {
        (context()["values"] as? [[String: Any]])?.first { $0["name"] as? String == name }?["value"] as? String
    }

    /// A source's state as `context` shows it (`available`, `missing`, `off`, `unknown`).
    func source(_ name: String) -> String? {
        (context()["sources"] as? [[String: Any]])?.first { $0["source"] as? String == name }?["state"] as? String
    }

    /// Waits until `context` shows `name` as `value` (nil: unknown).
    func waitFor(_ name: String, _ value: String?, within seconds: Double = 20) throws {
        try fixture.waitUntil("context to show \(name) = \(value ?? "unknown"); it shows: \(context())", timeout: seconds) {
            self.value(name) == value
        }
    }

    /// Waits until `context` shows the source `name` as `state`.
    func waitForSource(_ name: String, _ state: String, within seconds: Double = 20) throws {
        try fixture.waitUntil("context to show the source \(name) \(state); it shows: \(context())", timeout: seconds) {
            source(name) == state
        }
    }
}
