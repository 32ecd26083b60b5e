import Foundation
import WidgetCore
import WidgetDisplay
import WidgetProtocol

/// Content as a table shows it: each live date as the text it reads at the daemon's now
/// (the virtual one under `--clock virtual:`). `--json` shows the content as stored.
enum LiveText {
    /// The daemon's now, asked only when some content holds a live date.
    static func now(_ global: GlobalOptions, for contents: [JSONValue?]) -> Date? {
        guard contents.contains(where: { $0.map(LiveDate.contains) ?? false }) else { return nil }
        return try? global.call(Methods.Clock.self).now
    }

    static func content(_ value: JSONValue?, now: Date?) -> JSONValue? {
        guard let value, let now else { return value }
        return LiveDate.resolved(value, now: now, timeZone: .current)
    }
}
