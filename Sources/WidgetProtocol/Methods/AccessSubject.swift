import WidgetCore

/// What a kind-scoped request acts on, read from its params (`MethodSpec.subject(of:)`).
public enum AccessSubject: Sendable, Hashable {
    case none
    /// These kinds, and the kinds of these instances (`push`, a reload of single instances).
    case kinds([String], instances: [InstanceID] = [])
    /// `donate`: every kind that declares the intent type.
    case intentType(String)
    /// Names no kind: the caller's own.
    case callersKinds
}
