/// Who is at the other end of a control connection, as the kernel reported it when the
/// connection was made (`SO_PEERCRED`, `SO_PEERGROUPS`). Never taken from the request.
public struct PeerCredentials: Sendable, Hashable {
    public var uid: UInt32
    public var gid: UInt32
    public var pid: Int32
    /// Supplementary groups; empty when they were not read (root and the daemon's own uid
    /// need none).
    public var groups: [UInt32]

    public init(uid: UInt32, gid: UInt32, pid: Int32, groups: [UInt32] = []) {
        self.uid = uid
        self.gid = gid
        self.pid = pid
        self.groups = groups
    }

    /// A connection whose credentials could not be read: uid and gid (uid_t)-1, which no
    /// account has, so it owns nothing and manages nothing.
    public static let unidentified = PeerCredentials(uid: .max, gid: .max, pid: 0)

    /// Primary or supplementary member of `gid`.
    public func isMember(of gid: UInt32) -> Bool {
        self.gid == gid || groups.contains(gid)
    }
}
