import Foundation

/// `[limits]` of `widgetd.conf`: how much the daemon takes on, so that no client (or many
/// together) can grow it without bound. A request over a limit is refused whole and changes
/// nothing; retained donations and log rows are trimmed instead (the oldest go).
///
/// The defaults sit far above what a desktop or the benchmarks use (10,000 instances in
/// 1,000 stacks for a simulated day), so they only stop a runaway client.
public struct LimitSettings: Sendable, Hashable, Codable {
    /// Control connections open at once; one more is answered with an error and closed.
    /// Each may buffer up to one 1 MiB request line, so this also bounds that memory.
    public var maxConnections = 256
    /// Connections one uid may hold at once (root and the daemon's own uid are not held to it),
    /// so one client cannot take every slot.
    public var maxConnectionsPerUID = 64
    /// Slots of `maxConnections` that only root, the daemon's uid and the host group may take
    /// once the others are full (at most half of them), so readers cannot lock hosts out.
    public var reservedConnections = 32
    /// Answer and event bytes one connection may have waiting for its peer to read them;
    /// past it the connection is closed. A peer that does not read is not read from either.
    public var maxUnsentBytes = 64 * 1024 * 1024
    /// Seconds a request line may take from its first byte to its newline; a connection that
    /// holds a partial line longer is closed. Idle connections between lines are never closed.
    public var lineTimeout: TimeInterval = 30
    /// Instances placed; `add` beyond it is refused. A state that already holds more (the
    /// limit was lowered) is loaded whole.
    public var maxInstances = 100_000
    /// Smart Stacks; `stack.create` beyond it is refused.
    public var maxStacks = 10_000
    /// Instances in one stack.
    public var maxStackSize = 100
    /// Entries in one timeline, pushed or from a provider.
    public var maxEntries = 10_000
    /// Bytes of one entry's content, as its compact JSON text (what is stored and sent).
    public var maxEntryBytes = 65_536
    /// Donations retained: beyond it the oldest (by donation date) are dropped.
    public var maxDonations = 10_000
    /// Bytes of one donation: its parameters as compact JSON text, with its intent type, id
    /// and group; a larger donation is refused. With `maxDonations` it bounds what donations
    /// hold in memory and on disk.
    public var maxDonationBytes = 16_384
    /// Bytes of one instance's configuration, as its compact JSON text; `add`, `configure`
    /// or `preview` with a larger one is refused.
    public var maxConfigurationBytes = 65_536
    /// Rotation decisions retained in the log: beyond it the oldest are dropped.
    public var maxLogRows = 10_000
    /// Bytes of one descriptor file (and of a template file it names): a larger file is
    /// skipped without being read, with a problem naming this key.
    public var maxDescriptorBytes = 1 << 20
    /// Descriptor files read from the widgets directories together, in name order; the files
    /// past it are skipped, with one problem per directory naming this key.
    public var maxDescriptorFiles = 1_000
    /// Host values held in the context (`context.set`); a change that would hold more is refused.
    public var maxContextValues = 64
    /// Bytes of one host value's key and value together; a larger one is refused.
    public var maxContextValueBytes = 1_024
    /// Objects of one session service followed (logind's sessions, BlueZ's devices): a service
    /// that announces more is not followed past it, so a broken one cannot grow widgetd's memory.
    public var maxSessionObjects = 1_024
    /// D-Bus calls one uid may have waiting for their answers, over all its bus connections:
    /// past it a call is refused at once, so a caller that never waits cannot make widgetd hold
    /// its messages without bound.
    public var maxDBusCallsPerUID = 64

    public init() {}
}

/// A limit a request (or a provider's answer) would exceed: which setting, its value, and
/// what was asked, for a message that says what to change.
public struct LimitExceeded: Error, Sendable, Hashable, CustomStringConvertible {
    /// The key, e.g. `max-instances`.
    public var setting: String
    /// The section of `widgetd.conf` the key is in.
    public var section = "limits"
    public var max: Int
    /// What was too much, e.g. "100000 instances" or "a timeline of 12 entries, over 10".
    public var what: String
    /// The size that was asked for, when there is one (entries, bytes).
    public var actual: Int?
    /// The index of the entry that is too large (`max-entry-bytes`).
    public var entry: Int?

    public init(setting: String, section: String = "limits", max: Int, what: String, actual: Int? = nil, entry: Int? = nil) {
        self.setting = setting
        self.section = section
        self.max = max
        self.what = what
        self.actual = actual
        self.entry = entry
    }

    public var description: String { "limit exceeded: \(what) (\(setting) in [\(section)] of widgetd.conf)" }

    /// The socket's limit, whose value the server reads from its gate (it can change on SIGHUP).
    public static func connections(max: Int) -> LimitExceeded {
        LimitExceeded(setting: "max-connections", max: max, what: "\(max) open connections")
    }

    /// One uid holds `max` connections already.
    public static func connectionsPerUID(max: Int, uid: UInt32) -> LimitExceeded {
        LimitExceeded(setting: "max-connections-per-uid", max: max, what: "\(max) open connections of uid \(uid)")
    }

    /// Only the reserved slots are left, and the caller is neither root nor in the host group.
    /// `max` is what such callers may hold together.
    public static func reservedConnections(open max: Int, reserved: Int) -> LimitExceeded {
        LimitExceeded(
            setting: "reserved-connections", max: max,
            what: "\(max) open connections; the other \(reserved) are kept for root and the host group")
    }

    /// One uid has `max` D-Bus calls waiting for their answers already.
    public static func dbusCallsPerUID(max: Int, uid: UInt32) -> LimitExceeded {
        LimitExceeded(setting: "max-dbus-calls-per-uid", max: max, what: "\(max) D-Bus calls of uid \(uid) waiting for their answers")
    }

    /// A request line not ended within the time-out.
    public static func lineTimeout(seconds: Int) -> LimitExceeded {
        LimitExceeded(setting: "line-timeout", max: seconds, what: "a request line not ended within \(seconds) s")
    }
}

extension LimitSettings {
    public func instancesExceeded() -> LimitExceeded {
        LimitExceeded(setting: "max-instances", max: maxInstances, what: "\(maxInstances) instances")
    }

    public func stacksExceeded() -> LimitExceeded {
        LimitExceeded(setting: "max-stacks", max: maxStacks, what: "\(maxStacks) stacks")
    }

    public func stackSizeExceeded(_ name: String) -> LimitExceeded {
        LimitExceeded(setting: "max-stack-size", max: maxStackSize, what: "\(maxStackSize) instances in stack '\(name)'")
    }

    /// Refuses a donation larger than `max-donation-bytes`: its parameters as compact JSON,
    /// with its intent type, id and group, any of which could carry what the parameters would.
    public func checkDonation(_ donation: Donation) throws(LimitExceeded) {
        let bytes = Self.compactBytes(donation.parameters) + donation.intentType.utf8.count
            + (donation.id?.utf8.count ?? 0) + (donation.group?.utf8.count ?? 0)
        guard bytes <= maxDonationBytes else {
            throw LimitExceeded(
                setting: "max-donation-bytes", max: maxDonationBytes,
                what: "a donation of \(bytes) bytes, over \(maxDonationBytes)", actual: bytes)
        }
    }

    /// Refuses a configuration larger than `max-configuration-bytes`.
    public func checkConfiguration(_ configuration: [String: JSONValue]) throws(LimitExceeded) {
        let bytes = Self.compactBytes(configuration)
        guard bytes <= maxConfigurationBytes else {
            throw LimitExceeded(
                setting: "max-configuration-bytes", max: maxConfigurationBytes,
                what: "a configuration of \(bytes) bytes, over \(maxConfigurationBytes)", actual: bytes)
        }
    }

    /// The length of an object's compact JSON text, as it is stored. Written by `JSONText`,
    /// which writes what `WidgetJSON.encoder` does: the encoder was a sixth of a donation's
    /// CPU, only to count bytes.
    static func compactBytes(_ object: [String: JSONValue]) -> Int {
        guard !object.isEmpty else { return 2 }
        var text = JSONText(capacity: 256)
        text.value(.object(object))
        return text.bytes.count
    }

    /// The first limit `timeline` breaks (too many entries, or an entry's content too large),
    /// or nil when it fits.
    public func check(_ timeline: WidgetTimeline) -> LimitExceeded? {
        let entries = timeline.entries
        let count = entries.count
        if count > maxEntries {
            return LimitExceeded(
                setting: "max-entries", max: maxEntries, what: "a timeline of \(count) entries, over \(maxEntries)", actual: count)
        }
        for index in entries.indices {
            let bytes = entries.withContentJSON(at: index) { $0.count }
            if bytes > maxEntryBytes {
                return LimitExceeded(
                    setting: "max-entry-bytes", max: maxEntryBytes,
                    what: "entry \(index) has \(bytes) bytes of content, over \(maxEntryBytes)", actual: bytes, entry: index)
            }
        }
        return nil
    }
}

extension LimitSettings {
    /// One `key = value` line of `[limits]`.
    mutating func set(key: String, value: String, line: Int) throws(SettingsError) {
        func count(_ range: ClosedRange<Int>) throws(SettingsError) -> Int {
            guard let number = Int(value), range.contains(number) else {
                throw SettingsError(line: line, reason: "\(key): '\(value)' is not an integer in \(range.lowerBound)...\(range.upperBound)")
            }
            return number
        }
        switch key {
        case "max-connections": maxConnections = try count(1...65_536)
        case "max-connections-per-uid": maxConnectionsPerUID = try count(1...65_536)
        case "reserved-connections": reservedConnections = try count(0...65_536)
        case "max-unsent-bytes": maxUnsentBytes = try count(65_536...(1 << 32))
        case "line-timeout":
            guard let seconds = DurationText.seconds(value), (1...86_400).contains(seconds) else {
                throw SettingsError(line: line, reason: "\(key): '\(value)' is not a duration like 30s, 5m, 1h (1s...1d)")
            }
            lineTimeout = seconds
        case "max-instances": maxInstances = try count(1...100_000_000)
        case "max-stacks": maxStacks = try count(1...10_000_000)
        case "max-stack-size": maxStackSize = try count(1...100_000)
        case "max-entries": maxEntries = try count(1...10_000_000)
        case "max-entry-bytes": maxEntryBytes = try count(16...(256 * 1024 * 1024))
        case "max-donations": maxDonations = try count(0...100_000_000)
        case "max-donation-bytes": maxDonationBytes = try count(16...(64 * 1024 * 1024))
        case "max-configuration-bytes": maxConfigurationBytes = try count(16...(64 * 1024 * 1024))
        case "max-log-rows": maxLogRows = try count(Self.logRowsRange)
        case "max-descriptor-bytes": maxDescriptorBytes = try count(1024...(256 * 1024 * 1024))
        case "max-descriptor-files": maxDescriptorFiles = try count(1...1_000_000)
        case "max-context-values": maxContextValues = try count(0...100_000)
        case "max-context-value-bytes": maxContextValueBytes = try count(16...(1 << 20))
        case "max-session-objects": maxSessionObjects = try count(1...1_000_000)
        case "max-dbus-calls-per-uid": maxDBusCallsPerUID = try count(1...1_000_000)
        default: throw SettingsError(line: line, reason: "unknown key '\(key)' in [limits]")
        }
    }

    /// Shared with `[rotation] log-retention`, the key this limit had before `[limits]`.
    static let logRowsRange = 10...10_000_000
}
