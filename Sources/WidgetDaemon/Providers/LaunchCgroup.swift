import Glibc

/// One launch's group in the daemon's delegated cgroup subtree (`DelegatedCgroups`), from
/// before its provider starts until the launch's end removes it. The provider enters it
/// itself, between its fork and its exec (`procs`), so everything it starts is inside.
final class LaunchCgroup: LaunchBoundary, Sendable {
    let path: String
    /// The group's `cgroup.procs`, open for writing: the provider writes "0" to it to enter.
    let procs: CInt
    /// The group's `memory.events` (-1 without the memory controller): its OOM-kill count.
    private let events: CInt

    init(path: String, procs: CInt) {
        self.path = path
        self.procs = procs
        events = open(path + "/memory.events", O_RDONLY | O_CLOEXEC)
    }

    deinit {
        if procs >= 0 { close(procs) }
        if events >= 0 { close(events) }
    }

    var memoryLimitName: String { "its cgroup's memory.max" }

    /// SIGKILL to every process in the group at once (`cgroup.kill`, Linux 5.14); on an older
    /// kernel, to each process the group lists, until it lists none or `deadline` passes.
    func end() {
        end(until: ContinuousClock.now + .seconds(2))
    }

    func end(until deadline: ContinuousClock.Instant) {
        if Self.write("1", to: path + "/cgroup.kill") { return }
        while ContinuousClock.now < deadline {
            let pids = members
            if pids.isEmpty { return }
            for pid in pids { kill(pid, SIGKILL) }
            usleep(1000)
        }
    }

    /// The processes in the group now.
    var members: [pid_t] {
        guard let text = KernelFile.read(path + "/cgroup.procs") else { return [] }
        return text.split(separator: "\n").compactMap { pid_t($0) }
    }

    /// Removes the group once its last process has exited (a killed process takes a moment),
    /// trying until `deadline`; false if it is still there then.
    func remove(until deadline: ContinuousClock.Instant) -> Bool {
        while true {
            if rmdir(path) == 0 || errno == ENOENT { return true }
            guard errno == EBUSY, ContinuousClock.now < deadline else { return false }
            usleep(1000)
        }
    }

    var oomKilled: Bool? { KernelFile.oomKilled(events: events) }

    /// Writes `value` to the cgroup file `file` in one write, as the kernel takes them.
    static func write(_ value: String, to file: String) -> Bool {
        let fd = open(file, O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        let bytes = Array(value.utf8)
        return Glibc.write(fd, bytes, bytes.count) == bytes.count
    }
}
