import WidgetCore

/// Who may call a method, by class (AccessPolicy decides for a caller). Every method is
/// classified here, in one exhaustive switch, so a new method cannot be added without
/// deciding who may call it.
public enum MethodAccess: Sendable, Hashable {
    /// Reads and provider calls that change nothing durable: anyone who can connect.
    case open
    /// Instances, stacks, visibility, the clock: the host group.
    case manage
    /// Acts for kinds: their owners, and the host group as AccessPolicy says.
    case kinds(KindVerb)
}

extension RPCMethod {
    public var access: MethodAccess {
        switch self {
        case .ping, .status, .widgets, .list, .timeline, .schedule, .budget, .clock, .log, .explain, .subscribe,
            .stackShow, .stackList:
            .open
        // The provider's snapshot, placeholder and options: read-only calls a configuration UI
        // makes; they store nothing (options are cached until invalidated).
        case .preview, .placeholder, .options:
            .open
        case .add, .remove, .configure, .clockAdvance, .clockSet, .stackCreate, .stackAdd, .stackSwipe,
            .stackSmartRotate, .stackRemove, .visible:
            .manage
        case .push: .kinds(.push)
        case .reloadTimelines, .reloadAllTimelines: .kinds(.reload)
        case .donate, .donationsDelete: .kinds(.donate)
        case .invalidateConfigurationRecommendations: .kinds(.invalidate)
        }
    }
}
