import Glibc
import Logging

/// The soft limit on open files must leave room for `max-connections` (one descriptor each)
/// and the daemon's own (database, pipes of running providers, signals, timers). systemd
/// starts services at a soft limit of 1024 and a much higher hard one, and expects a program
/// that needs more to raise its soft limit itself.
enum DescriptorLimit {
    /// Descriptors the daemon keeps besides its connections, with a margin.
    static let reserve = 256

    static func ensure(connections: Int, logger: Logger) {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return }
        let needed = rlim_t(connections + reserve)
        guard limit.rlim_cur < needed else { return }
        let raised = min(needed, limit.rlim_max)
        var wanted = limit
        wanted.rlim_cur = raised
        if setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &wanted) != 0 || raised < needed {
            logger.warning(
                "open-file limit below what max-connections needs; accepting may fail before the limit",
                metadata: ["soft": "\(limit.rlim_cur)", "hard": "\(limit.rlim_max)", "needed": "\(needed)"])
        }
    }
}
