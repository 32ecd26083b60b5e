import Foundation

/// Everything the daemon knows about one placed widget, in one place: removing an instance
/// removes its record, and nothing else needs to be kept in step.
public struct InstanceRecord: Sendable, Hashable {
    public var instance: WidgetInstance
    public var timeline: StoredTimeline?
    /// Its relevance scores over time; empty for most instances.
    public var relevance = RelevanceHistory()
    /// The reload asked for and not yet carried out, as stored (so a restart carries it out).
    public var request: StoredRequest?
    /// In the last `visible` report of a host.
    public var visible = false
    /// When a host last showed it.
    public var lastVisible: Date?
    /// The donations its configuration matches, oldest first; kept only while the instance is
    /// in a stack, where ranking reads them at every evaluation.
    public var matched: [LocalDonation] = []
    /// The run of identical provider failures it is in, if any: the last one's message is
    /// `lastError`. Rare, so kept out of line (a record is held per instance, a million of them).
    public var failures: FailureStreak? {
        get { failureBox?.value }
        set { failureBox = newValue.map(Boxed.init) }
    }
    private var failureBox: Boxed<FailureStreak>?
    /// The change number of the last `push` or `configure`: a provider answer to a launch that
    /// started before it answers an older question and is dropped.
    public var replaced: UInt64 = 0

    public init(instance: WidgetInstance) {
        self.instance = instance
    }

    /// Why the last reload failed, while the previous timeline is shown.
    public var lastError: String? { failures?.message }

    public var id: InstanceID { instance.id }
    public var kind: String { instance.kind }
}

/// A value kept behind a reference: eight bytes where it is absent or shared.
public final class Boxed<Value: Sendable & Hashable>: Sendable, Hashable {
    public let value: Value

    public init(_ value: Value) {
        self.value = value
    }

    public static func == (lhs: Boxed, rhs: Boxed) -> Bool { lhs.value == rhs.value }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(value)
    }
}
