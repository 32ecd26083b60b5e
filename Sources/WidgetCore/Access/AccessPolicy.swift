/// Decides who may do what on the control socket. Pure: the caller's credentials, the
/// method's class and the owners of the kinds it touches go in, a decision comes out.
///
/// - root and the daemon's own uid may do everything (a user running their own daemon, and
///   every test, keep working unchanged);
/// - members of the host group manage instances, stacks, visibility and the clock, reload any
///   kind, and push and donate for kinds without an owner;
/// - a kind's owner pushes, reloads and donates for its kinds; a request that names no kind
///   acts on the caller's own kinds only, as an app's `reloadAllTimelines()` in WidgetKit;
/// - reads are open to anyone who can connect (the socket's file mode decides that);
/// - a user service (`singleUser`) serves its user alone: nobody but root and the daemon's
///   uid gets past the connection, and the host group counts for nothing.
public struct AccessPolicy: Sendable, Hashable {
    public var daemonUID: UInt32
    /// The configured host group's name, and its gid (nil when no such group exists).
    public var hostGroupName: String
    public var hostGID: UInt32?
    /// A user's own service (`widgetd --user-service`): its widgets, stacks and donations are
    /// that user's, so no other account may even read them.
    public var singleUser: Bool

    public init(
        daemonUID: UInt32, hostGroupName: String = AccessSettings.defaultHostGroup, hostGID: UInt32? = nil,
        singleUser: Bool = false
    ) {
        self.daemonUID = daemonUID
        self.hostGroupName = hostGroupName
        self.hostGID = singleUser ? nil : hostGID
        self.singleUser = singleUser
    }

    /// Whether `caller` may keep a connection at all. Root stays in as it does on any user's
    /// socket: it can read the state file and reach the socket file whatever the policy says.
    public func mayConnect(_ caller: PeerCredentials) -> Bool {
        !singleUser || isUnrestricted(caller)
    }

    /// Root or the daemon's own user: no decision needed.
    public func isUnrestricted(_ caller: PeerCredentials) -> Bool {
        caller.uid == 0 || caller.uid == daemonUID
    }

    public func isHost(_ caller: PeerCredentials) -> Bool {
        hostGID.map(caller.isMember(of:)) ?? false
    }

    /// May `caller` manage (instances, stacks, visibility): root, the daemon's uid, the host group.
    public func mayManage(_ caller: PeerCredentials) -> Bool {
        isUnrestricted(caller) || isHost(caller)
    }

    public func decide(_ caller: PeerCredentials, method: String, _ request: AccessRequest) -> AccessDecision {
        if case .read = request { return .allowed }
        if isUnrestricted(caller) { return .allowed }
        let host = isHost(caller)
        switch request {
        case .read:
            return .allowed
        case .manage:
            return host ? .allowed : refuse(caller, method, allowed: everyone + [hostGroupText])
        case .kinds(let verb, let kinds):
            for item in kinds where !may(caller, verb, item.owner, host: host) {
                return refuse(caller, method, kind: item.kind, allowed: whoMay(verb, item.owner))
            }
            return .allowed
        case .intentType(let type, let kinds):
            // An intent type no kind declares has no owner to speak for it.
            guard !kinds.isEmpty else {
                return host ? .allowed : refuse(caller, method, intentType: type, allowed: everyone + [hostGroupText])
            }
            for item in kinds where !may(caller, .donate, item.owner, host: host) {
                return refuse(caller, method, kind: item.kind, intentType: type, allowed: whoMay(.donate, item.owner))
            }
            return .allowed
        case .callersKinds(let verb, let all):
            if host { return .allowed }
            let mine = all.filter { may(caller, verb, $0.owner, host: false) }.map(\.kind).sorted()
            guard !mine.isEmpty else {
                return refuse(caller, method, allowed: everyone + [hostGroupText, "the owner of a kind (for its own kinds)"])
            }
            return .allowedKinds(mine)
        }
    }

    /// The intent types whose donations a caller limited to `kinds` may delete: those that
    /// only kinds in `kinds` declare.
    public static func intentTypes(within kinds: Set<String>, declarations: [(intentType: String, kind: String)]) -> Set<String> {
        var outside: Set<String> = []
        var inside: Set<String> = []
        for declaration in declarations {
            if kinds.contains(declaration.kind) { inside.insert(declaration.intentType) } else { outside.insert(declaration.intentType) }
        }
        return inside.subtracting(outside)
    }

    private func may(_ caller: PeerCredentials, _ verb: KindVerb, _ owner: KindOwner?, host: Bool) -> Bool {
        if let owner, owner.includes(caller) { return true }
        guard host else { return false }
        return verb.hostMayActOnOwnedKinds || owner == nil
    }

    private func whoMay(_ verb: KindVerb, _ owner: KindOwner?) -> [String] {
        var who = everyone
        if let owner { who.append("\(owner.description), the kind's owner") }
        if verb.hostMayActOnOwnedKinds || owner == nil { who.append(hostGroupText) }
        return who
    }

    private var everyone: [String] {
        daemonUID == 0 ? ["root"] : ["root", "uid \(daemonUID) (widgetd's own)"]
    }

    private var hostGroupText: String {
        if let hostGID { return "members of the host group '\(hostGroupName)' (gid \(hostGID))" }
        return "members of the host group '\(hostGroupName)' (no such group here)"
    }

    private func refuse(
        _ caller: PeerCredentials, _ method: String, kind: String? = nil, intentType: String? = nil, allowed: [String]
    ) -> AccessDecision {
        .refused(AccessRefusal(method: method, kind: kind, intentType: intentType, uid: caller.uid, allowed: allowed))
    }
}

/// What a request asks for, as the decision sees it.
public enum AccessRequest: Sendable, Hashable {
    /// Reads: open to anyone who can connect.
    case read
    /// Instances, stacks, visibility, the clock: the host group.
    case manage
    /// Acts for these kinds. Kinds the daemon does not know are left out (the request then
    /// fails as an unknown kind, changing nothing).
    case kinds(KindVerb, [KindOwnership])
    /// A donation of an intent type: it acts for every kind that declares that type.
    case intentType(String, declaredBy: [KindOwnership])
    /// Names no kind (`reloadAllTimelines`, `donations.delete`, `invalidateConfigurationRecommendations`
    /// without a kind): it acts on the kinds the caller may act on, out of `all`.
    case callersKinds(KindVerb, all: [KindOwnership])
}

/// What a kind-scoped method does to a kind.
public enum KindVerb: String, Sendable, Hashable, CaseIterable {
    case push, reload, donate, invalidate

    /// The host group reloads anything (and drops cached options of anything); pushing a
    /// timeline or donating for a kind that has an owner is the owner's business.
    var hostMayActOnOwnedKinds: Bool { self == .reload || self == .invalidate }
}

public struct KindOwnership: Sendable, Hashable {
    public var kind: String
    public var owner: KindOwner?

    public init(kind: String, owner: KindOwner?) {
        self.kind = kind
        self.owner = owner
    }
}

public enum AccessDecision: Sendable, Hashable {
    case allowed
    /// Allowed on these kinds only (a request that names no kind, from a kind's owner).
    case allowedKinds([String])
    case refused(AccessRefusal)
}

/// A refused request: the method, the kind (or intent type) where one is involved, the
/// caller's uid, and who would have been allowed.
public struct AccessRefusal: Error, Sendable, Hashable, CustomStringConvertible {
    public var method: String
    public var kind: String?
    public var intentType: String?
    public var uid: UInt32
    public var allowed: [String]

    public init(method: String, kind: String?, intentType: String?, uid: UInt32, allowed: [String]) {
        self.method = method
        self.kind = kind
        self.intentType = intentType
        self.uid = uid
        self.allowed = allowed
    }

    public var description: String {
        var subject = "'\(method)'"
        switch (intentType, kind) {
        case (let type?, let kind?): subject += " for intent type '\(type)' (declared by kind '\(kind)')"
        case (let type?, nil): subject += " for intent type '\(type)'"
        case (nil, let kind?): subject += " for kind '\(kind)'"
        case (nil, nil): break
        }
        return "permission denied: uid \(uid) may not call \(subject); allowed: \(allowed.joined(separator: ", "))"
    }
}
