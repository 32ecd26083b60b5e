import Foundation

/// A content value `{"$date": "2026-01-05T08:12:00Z", "style": "timer"}`: a date that hosts
/// render as the time goes by, as WidgetKit's `Text(date, style:)`, so a countdown stays right
/// between entries. Pure: `now` and the time zone are passed in, so every host (the bars, the
/// web host, `widgetctl`) and every test reads the same text at the same instant. Here, with
/// Foundation alone, so the hosts and the SDK (a provider writes one as an entry's property)
/// share the one form.
public struct LiveDate: Sendable, Hashable {
    public enum Style: String, Sendable, CaseIterable {
        /// `4:59`, `1:02:03`: the time left to the date, then the time since it.
        case timer
        /// `2 min`, `1 hr, 5 min`: the distance either way, to the minute.
        case relative
        /// `-2 minutes`, `+3 hours`: now's offset from the date in its largest whole unit,
        /// `-` before the date and `+` after it (as WidgetKit's: a date to come is negative).
        case offset
        /// `08:12`: the date's time of day.
        case time
        /// `5 January 2026`: the date's day.
        case date
    }

    public var date: Date
    public var style: Style

    public init(date: Date, style: Style) {
        self.date = date
        self.style = style
    }

    /// The value read from content: an object with exactly `$date` (ISO 8601 with a zone) and
    /// `style` (one of the five; absent means `date`, as `Text(date, style: .date)`); nil for
    /// anything else, which stays ordinary content.
    public init?(_ value: JSONValue) {
        guard case .object(let fields) = value, case .string(let text)? = fields["$date"], let date = ISO8601.date(from: text) else {
            return nil
        }
        var style = Style.date
        for (key, field) in fields where key != "$date" {
            guard key == "style", case .string(let name) = field, let known = Style(rawValue: name) else { return nil }
            style = known
        }
        self.init(date: date, style: style)
    }

    /// The text at `now`, as `style` shows it (`style` nil: its own). The distance counts
    /// whole steps from the date, so a text holds from one step to the next and changes at
    /// the date itself: a timer reads `0:01` just before it and `0:00` from it.
    public func text(now: Date, timeZone: TimeZone, style: Style? = nil) -> String {
        let style = style ?? self.style
        switch style {
        case .timer:
            let whole = Self.steps(now.timeIntervalSince(date), 1).magnitude
            let (hours, rest) = whole.quotientAndRemainder(dividingBy: 3600)
            let (minutes, secs) = rest.quotientAndRemainder(dividingBy: 60)
            return hours > 0 ? "\(hours):\(Self.twoDigits(minutes)):\(Self.twoDigits(secs))" : "\(minutes):\(Self.twoDigits(secs))"
        case .relative:
            return Self.units(minutes: Self.steps(now.timeIntervalSince(date), 60).magnitude)
        case .offset:
            let steps = Self.steps(now.timeIntervalSince(date), 1)
            let size = Self.offsetUnit(steps.magnitude)
            let count = steps.magnitude / size.seconds
            let name = count == 1 ? size.name : size.name + "s"
            return (steps == 0 ? "" : steps < 0 ? "-" : "+") + "\(count) \(name)"
        case .time:
            let parts = Self.calendar(timeZone).dateComponents([.hour, .minute], from: date)
            return "\(Self.twoDigits(UInt(parts.hour ?? 0))):\(Self.twoDigits(UInt(parts.minute ?? 0)))"
        case .date:
            let parts = Self.calendar(timeZone).dateComponents([.day, .month, .year], from: date)
            return "\(parts.day ?? 1) \(Self.months[(parts.month ?? 1) - 1]) \(parts.year ?? 0)"
        }
    }

    /// Whole steps of `step` seconds from the date to now, negative before it.
    static func steps(_ sinceDate: TimeInterval, _ step: Double) -> Int {
        let count = (sinceDate / step).rounded(.down)
        return Int(max(min(count, 1e15), -1e15))
    }

    /// When the text next changes after `now`: the next whole second from the date for `timer`,
    /// the next whole minute from it for `relative`, and for `offset` the second its count or
    /// unit changes (each second within a minute of the date, then each minute, hour or day).
    /// `time` and `date` read only the date (in a zone the host fixes), so they never change:
    /// nil, and a host arms nothing.
    public func nextChange(after now: Date, style: Style? = nil) -> Date? {
        let step: Double
        switch style ?? self.style {
        case .timer: step = 1
        case .relative: step = 60
        case .offset: return offsetChange(after: now)
        case .time, .date: return nil
        }
        // The text changes where the distance to the date crosses a multiple of `step`: on
        // the grid of instants `date + k * step`.
        let distance = now.timeIntervalSince(date)
        let next = date.addingTimeInterval(((distance / step).rounded(.down) + 1) * step)
        return next > now ? next : next.addingTimeInterval(step)
    }

    /// The text holds as long as the whole seconds from the date keep their count of the unit
    /// shown: after the date that count grows at the next multiple of the unit; before it, it
    /// shrinks one second below the multiple it stands on (`-2 minutes` holds down to 120 s
    /// before the date, and `-1 minute` reads from 119 s).
    private func offsetChange(after now: Date) -> Date {
        let steps = Self.steps(now.timeIntervalSince(date), 1)
        let seconds = steps.magnitude
        let size = Self.offsetUnit(seconds).seconds
        let next = steps >= 0 ? Double((seconds / size + 1) * size) : -Double(seconds / size * size - 1)
        return date.addingTimeInterval(next)
    }

    /// The largest unit of `seconds` that is not zero (seconds for none).
    static func offsetUnit(_ seconds: UInt) -> (seconds: UInt, name: String) {
        [(86400, "day"), (3600, "hour"), (60, "minute")].first { seconds >= $0.0 } ?? (1, "second")
    }

    // MARK: Content

    /// The content with every live date replaced by its text at `now`: what a host shows, and
    /// what a plain-text rendering (the generic line, `widgetctl`) reads.
    public static func resolved(_ content: JSONValue, now: Date, timeZone: TimeZone) -> JSONValue {
        if let live = LiveDate(content) { return .string(live.text(now: now, timeZone: timeZone)) }
        switch content {
        case .array(let items): return .array(items.map { resolved($0, now: now, timeZone: timeZone) })
        case .object(let fields): return .object(fields.mapValues { resolved($0, now: now, timeZone: timeZone) })
        default: return content
        }
    }

    /// The earliest instant after `now` at which any live date of `content` reads differently;
    /// nil when none ever does (no live date, or only `time` and `date`): a host arms a timer
    /// only when this is not nil.
    public static func nextChange(in content: JSONValue, after now: Date) -> Date? {
        if let live = LiveDate(content) { return live.nextChange(after: now) }
        let inner: [JSONValue]
        switch content {
        case .array(let items): inner = items
        case .object(let fields): inner = Array(fields.values)
        default: return nil
        }
        return inner.compactMap { nextChange(in: $0, after: now) }.min()
    }

    /// Whether `content` holds a live date anywhere.
    public static func contains(_ content: JSONValue) -> Bool {
        if LiveDate(content) != nil { return true }
        switch content {
        case .array(let items): return items.contains(where: contains)
        case .object(let fields): return fields.values.contains(where: contains)
        default: return false
        }
    }

    // MARK: Spelling

    static let months = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December",
    ]

    static func twoDigits(_ number: UInt) -> String {
        number < 10 ? "0\(number)" : "\(number)"
    }

    static func calendar(_ zone: TimeZone) -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        return calendar
    }

    /// `1 day, 2 hr`, `1 hr, 5 min`, `2 min`: the two largest units that are not zero, in
    /// whole minutes (a second unit that is zero is left out); `0 min` for nothing.
    static func units(minutes: UInt) -> String {
        let all: [(UInt, String)] = [(1440, "day"), (60, "hr"), (1, "min")]
        var left = minutes
        var parts: [String] = []
        for (size, name) in all {
            let count = left / size
            left -= count * size
            if count > 0 { parts.append("\(count) \(name == "day" && count != 1 ? "days" : name)") }
            if parts.count == 2 || (!parts.isEmpty && count == 0) { break }
        }
        return parts.isEmpty ? "0 min" : parts.joined(separator: ", ")
    }
}
