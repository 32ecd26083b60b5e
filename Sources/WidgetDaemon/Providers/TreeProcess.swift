import Foundation
import Glibc

/// One process below the daemon, as /proc shows it.
struct TreeProcess: Hashable, Sendable {
    var pid: pid_t
    var parent: pid_t
    /// Clock ticks after boot (field 22 of /proc/PID/stat): with the pid, names the process
    /// even after the pid is given to another.
    var start: UInt64
    var zombie: Bool
}
