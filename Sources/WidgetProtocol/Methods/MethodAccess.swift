import WidgetCore

/// Who may call a method, by class (`AccessPolicy` decides for a caller).
public enum MethodAccess: Sendable, Hashable {
    /// Reads and provider calls that change nothing durable: anyone who can connect.
    case open
    /// Instances, stacks, visibility, the clock: the host group.
    case manage
    /// Acts for kinds: their owners, and the host group as `AccessPolicy` says.
    case kinds(KindVerb)
}
