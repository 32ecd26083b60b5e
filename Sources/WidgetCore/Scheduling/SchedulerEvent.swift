import Foundation

/// What the scheduler asks its owner to carry out.
public enum SchedulerEvent: Sendable, Hashable {
    /// The shown entry of an instance changes at this date; the handle of its record follows.
    case entryChange(InstanceID, Date, RecordHandle)
    /// Launch a provider once for these instances.
    case reload(ReloadBatch)
}

/// Instances of one provider reloaded by one launch.
public struct ReloadBatch: Sendable, Hashable {
    public var providerKey: String
    /// When the launch happens: the `now` it was popped at (on the virtual clock, the
    /// earliest due time of its members).
    public var date: Date
    /// Earliest wanted first.
    public var members: [ReloadMember]

    public init(providerKey: String, date: Date, members: [ReloadMember]) {
        self.providerKey = providerKey
        self.date = date
        self.members = members
    }
}

public struct ReloadMember: Sendable, Hashable {
    public var instance: InstanceID
    public var reason: ReloadReason
    /// When the reload was wanted (policy date or request time); the launch may be up to W earlier.
    public var wanted: Date
    /// The handle of its record when the batch was made, for calls in the same step (`none`
    /// when not known). Good until the record is removed: an answer that comes later finds the
    /// record by `instance`.
    public var handle: RecordHandle

    public init(instance: InstanceID, reason: ReloadReason, wanted: Date, handle: RecordHandle = .none) {
        self.instance = instance
        self.reason = reason
        self.wanted = wanted
        self.handle = handle
    }
}

/// A pending reload as `widgetctl schedule` shows it.
public struct ScheduledReload: Sendable, Hashable, Codable {
    public var instance: InstanceID
    public var kind: String
    /// When it will run: `wanted`, or later when the budget defers it.
    public var due: Date
    public var wanted: Date
    public var reason: ReloadReason
    /// A launch is running now; this reload follows it.
    public var inFlight: Bool
    /// Held (`reason` is then why: `hidden`, no host has shown the instance for `hidden-after`;
    /// `locked`, the session is locked; `power-saver`): why it will run once the hold ends.
    /// `due` is when it would have run.
    public var heldReason: ReloadReason? = nil

    public var deferredByBudget: Bool { due > wanted }
}
