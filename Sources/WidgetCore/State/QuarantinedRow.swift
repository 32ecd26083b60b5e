import Foundation

/// A stored row that does not decode (a configuration that is not JSON, an unknown policy, a
/// date that is not a number...): found by the start-up read, left in the file as it is, and
/// reported once, so one damaged row neither stops the daemon nor goes unnoticed.
public struct QuarantinedRow: Sendable, Hashable {
    /// The table the row is in.
    public var table: String
    /// What identifies the row in its table: "id = '415f970d'", "name = 'home'", "rowid = 12".
    public var key: String
    /// What does not decode, and why.
    public var reason: String
    /// What the operator can do about it.
    public var advice: String

    public init(table: String, key: String, reason: String, advice: String) {
        self.table = table
        self.key = key
        self.reason = reason
        self.advice = advice
    }

    /// The start-up log's line for it.
    public var note: Note {
        Note(
            level: .warning, message: "stored row does not decode, left as it is",
            metadata: ["table": table, "row": key, "reason": reason, "advice": advice])
    }
}

/// An instance some row of which does not decode: not loaded, but shown as failed with the
/// reason until it is removed (`remove` deletes its rows) or its row is fixed and widgetd
/// restarted. Nothing is written for it meanwhile.
public struct FailedInstance: Sendable, Hashable {
    public var id: InstanceID
    /// As stored, when it could be read (empty otherwise).
    public var kind: String
    public var family: WidgetFamily?
    public var created: Date
    /// "stored row does not decode: ...".
    public var reason: String

    public init(id: InstanceID, kind: String, family: WidgetFamily?, created: Date, reason: String) {
        self.id = id
        self.kind = kind
        self.family = family
        self.created = created
        self.reason = reason
    }
}
