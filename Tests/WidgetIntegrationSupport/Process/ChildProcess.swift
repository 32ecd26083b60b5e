import CSystemd
import Foundation
import Glibc
import Testing

/// A child started with posix_spawn, output appended to a log file. Foundation's `Process`
/// is not used for long-lived children: it watches them through an inherited socket, and a
/// program that closes inherited fds (systemd-socket-activate does) makes its shared
/// reaper thread block in `wait4`, hanging every other `Process` in the test run.
final class ChildProcess {
    let processIdentifier: pid_t
    private let executable: String
    private var status: Int32?

    /// `ownGroup`: the child leads a process group of its own, so that `killGroup` ends it
    /// with every process it started (a browser's helpers), and nothing else.
    init(_ executable: String, _ arguments: [String], environment: [String: String], logPath: String, ownGroup: Bool = false) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, logPath, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        // Nothing else of the test process: a daemon that inherited another test's client
        // socket would keep that connection open after the test closed it.
        widgetd_spawn_closefrom(&actions, 3)
        var argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        var envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        // The spawning thread may block signals (dispatch worker threads do), and a child
        // inherits that mask: reset it, or SIGTERM would never reach the child.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &all)
        var flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF
        if ownGroup {
            posix_spawnattr_setpgroup(&attributes, 0)
            flags |= POSIX_SPAWN_SETPGROUP
        }
        posix_spawnattr_setflags(&attributes, Int16(flags))
        var pid: pid_t = 0
        let result = posix_spawn(&pid, executable, &actions, &attributes, &argv, &envp)
        guard result == 0 else { throw FixtureError("cannot start \(executable): \(String(cString: strerror(result)))") }
        processIdentifier = pid
        self.executable = (executable as NSString).lastPathComponent
    }

    deinit {
        if isRunning {
            kill(processIdentifier, SIGKILL)
            waitUntilExit()
        }
    }

    /// SIGKILL to the child's whole process group (started with `ownGroup`), then reaps the child.
    func killGroup() {
        kill(-processIdentifier, SIGKILL)
        waitUntilExit()
    }

    var isRunning: Bool {
        guard status == nil else { return false }
        var raw: Int32 = 0
        if waitpid(processIdentifier, &raw, WNOHANG) == processIdentifier {
            status = raw
            return false
        }
        return true
    }

    /// Waits for the child to exit, at most `seconds`: one that has not exited by then is
    /// killed and the test fails naming it, so a child that hangs fails the suite instead of
    /// holding it up.
    func waitUntilExit(within seconds: Double = 120) {
        guard status == nil else { return }
        var raw: Int32 = 0
        let end = ContinuousClock.now + .seconds(seconds)
        while true {
            let result = waitpid(processIdentifier, &raw, WNOHANG)
            if result == processIdentifier {
                status = raw
                return
            }
            if result < 0 && errno != EINTR {
                status = raw
                return
            }
            if ContinuousClock.now >= end { break }
            usleep(2_000)
        }
        kill(processIdentifier, SIGKILL)
        while waitpid(processIdentifier, &raw, 0) < 0 && errno == EINTR {}
        status = raw
        Issue.record("\(executable) (pid \(processIdentifier)) did not exit within \(Int(seconds)) s and was killed")
    }

    /// The exit code, or 128 + signal when killed by one.
    var terminationStatus: Int32 {
        guard let status else { return -1 }
        return status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    }
}
