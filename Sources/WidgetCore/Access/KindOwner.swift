/// Who may push, reload and donate for a kind besides root, the daemon's own user and (for
/// reloads) the host group: a descriptor's `"owner": {"user": NAME}` or `{"group": NAME}`.
/// The name is resolved once, when descriptors load (and on SIGHUP), never per request.
public enum KindOwner: Sendable, Hashable {
    case user(name: String, uid: UInt32)
    case group(name: String, gid: UInt32)

    public func includes(_ caller: PeerCredentials) -> Bool {
        switch self {
        case .user(_, let uid): caller.uid == uid
        case .group(_, let gid): caller.isMember(of: gid)
        }
    }

    /// For messages: `user 'alice' (uid 1001)`.
    public var description: String {
        switch self {
        case .user(let name, let uid): "user '\(name)' (uid \(uid))"
        case .group(let name, let gid): "group '\(name)' (gid \(gid))"
        }
    }
}

/// `{"user": "alice", "uid": 1001}` or `{"group": "apps", "gid": 1002}`: the descriptor's shape
/// plus the id it resolved to.
extension KindOwner: Codable {
    private enum Keys: String, CodingKey { case user, uid, group, gid }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        if let name = try container.decodeIfPresent(String.self, forKey: .user) {
            self = .user(name: name, uid: try container.decode(UInt32.self, forKey: .uid))
        } else {
            self = .group(
                name: try container.decode(String.self, forKey: .group), gid: try container.decode(UInt32.self, forKey: .gid))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        switch self {
        case .user(let name, let uid):
            try container.encode(name, forKey: .user)
            try container.encode(uid, forKey: .uid)
        case .group(let name, let gid):
            try container.encode(name, forKey: .group)
            try container.encode(gid, forKey: .gid)
        }
    }
}

/// Resolves user and group names to ids. The daemon asks the system (NSS); tests give a table.
public protocol AccountDirectory: Sendable {
    func userID(named name: String) -> UInt32?
    func groupID(named name: String) -> UInt32?
}

/// A fixed table of names, for tests and for parsing without a system to ask.
public struct AccountTable: AccountDirectory {
    public var users: [String: UInt32]
    public var groups: [String: UInt32]

    public init(users: [String: UInt32] = [:], groups: [String: UInt32] = [:]) {
        self.users = users
        self.groups = groups
    }

    public func userID(named name: String) -> UInt32? { users[name] }
    public func groupID(named name: String) -> UInt32? { groups[name] }
}
