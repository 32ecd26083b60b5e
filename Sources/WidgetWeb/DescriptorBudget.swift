import Glibc

/// The open-file limit against the connections the host may hold. systemd starts services at
/// a soft limit of 1024, and expects a program that needs more to raise it itself; when the
/// hard limit (or a seccomp filter) does not allow what `--max-connections` needs, the host
/// holds fewer connections rather than reach the limit (see `ConnectionLimit`).
enum DescriptorBudget {
    struct Fit {
        var connections: Int
        /// Said at start when the limit holds fewer connections than asked.
        var note: String?
    }

    static func fit(connections: Int, listeners: Int) throws -> Fit {
        let needed = ConnectionLimit.descriptors(listeners: listeners, connections: connections)
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return Fit(connections: connections) }
        if limit.rlim_cur < rlim_t(needed) {
            var wanted = limit
            wanted.rlim_cur = min(rlim_t(needed), limit.rlim_max)
            if setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &wanted) == 0 { limit = wanted }
        }
        guard limit.rlim_cur < rlim_t(needed) else { return Fit(connections: connections) }
        let available = Int(limit.rlim_cur)
        let fitting = (available - ConnectionLimit.reserve) / listeners - ConnectionLimit.refusalSlots - ConnectionLimit.acceptBatch
        guard fitting >= 1 else {
            throw ServeError(
                description: "the open-file limit (\(available)) leaves no room for a connection: raise it (LimitNOFILE=) to at least \(needed)")
        }
        return Fit(
            connections: fitting,
            note: "widgetd-web: the open-file limit (soft \(available), hard \(limit.rlim_max)) holds \(fitting) connections per listener, "
                + "not the \(connections) of --max-connections: serving at most \(fitting) (raise LimitNOFILE= to \(needed) for all)\n")
    }
}
