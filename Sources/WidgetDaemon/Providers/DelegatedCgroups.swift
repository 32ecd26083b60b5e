import CSystemd
import Foundation
import Logging
import Synchronization

/// Under a system service given its cgroup subtree (`Delegate=yes`), each provider launch in a
/// group of its own there: the kernel holds every process of the launch in it, wherever it
/// moves in the process tree (`setsid`, a double fork), with `memory.max` and `cpu.max` for
/// all of them together where those controllers were delegated, and the launch's end kills
/// the group and removes it. The service manager refuses such a service transient scopes
/// (an unprivileged caller needs polkit's leave), and this needs nobody's.
///
/// The daemon moves itself into a leaf of the subtree first (`LaunchCgroupPlan.daemonLeaf`),
/// so that the subtree's root may hand controllers to the launches' groups.
final class DelegatedCgroups: Sendable {
    /// The service's group: the root of the delegated subtree.
    let service: String
    let plan: LaunchCgroupPlan
    private let logger: Logger
    private let sequence = Atomic<UInt64>(0)
    /// Groups a launch's end could not remove yet (a process in uninterruptible sleep): tried
    /// again at later launches' ends.
    private let leftover = Mutex<[LaunchCgroup]>([])
    /// Whether a group could not be made: said once.
    private let failed = Atomic<Bool>(false)

    /// The subtree at `service`, already set up (`claim` does that under systemd).
    init(service: String, plan: LaunchCgroupPlan, logger: Logger) {
        self.service = service
        self.plan = plan
        self.logger = logger
    }

    /// The daemon's delegated subtree when a service manager started it (it is the process
    /// the manager executed, `SYSTEMD_EXEC_PID`, not a child of a unit's process that
    /// inherited the variable) in a group of the unified hierarchy that the manager marked
    /// delegated and the daemon may write to, with the daemon moved into its leaf; nil
    /// otherwise (no delegation, a read-only cgroup file system, no unified hierarchy).
    static func claim(logger: Logger) -> DelegatedCgroups? {
        guard ProcessInfo.processInfo.environment["SYSTEMD_EXEC_PID"] == String(getpid()),
              let cgroupFile = KernelFile.read("/proc/self/cgroup"),
              let mountInfo = KernelFile.read("/proc/self/mountinfo"),
              let found = UnifiedCgroup.directory(cgroupFile: cgroupFile, mountInfo: mountInfo)
        else { return nil }
        // The group widgetd is in: the service's own, or its leaf after a start that got this
        // far (the daemon re-executed in place).
        let service = found.hasSuffix("/" + LaunchCgroupPlan.daemonLeaf)
            ? String(found.dropLast(LaunchCgroupPlan.daemonLeaf.count + 1)) : found
        guard isDelegated(service), access(service, W_OK) == 0, access(service + "/cgroup.procs", W_OK) == 0,
              access(service + "/cgroup.subtree_control", W_OK) == 0 else { return nil }
        let leaf = service + "/" + LaunchCgroupPlan.daemonLeaf
        guard mkdir(leaf, 0o755) == 0 || errno == EEXIST, LaunchCgroup.write("0", to: leaf + "/cgroup.procs") else {
            logger.warning(
                "cannot move widgetd into a leaf of its delegated cgroup; provider launches get no cgroup of their own",
                metadata: ["cgroup": "\(service)", "error": "\(String(cString: strerror(errno)))"])
            return nil
        }
        removeLeftovers(in: service)
        // One by one: a write naming a controller the kernel refuses fails as a whole.
        for controller in LaunchCgroupPlan.enabling(available: KernelFile.read(service + "/cgroup.controllers") ?? "") {
            _ = LaunchCgroup.write("+" + controller, to: service + "/cgroup.subtree_control")
        }
        let enabled = Set((KernelFile.read(service + "/cgroup.subtree_control") ?? "")
            .split(whereSeparator: \.isWhitespace).map(String.init))
        let plan = LaunchCgroupPlan(controllers: enabled)
        if plan.unenforced.isEmpty {
            logger.info("provider launches run in cgroups of their own", metadata: ["cgroup": "\(service)"])
        } else {
            logger.warning(
                "provider launches run in cgroups of their own, which end with them, but the kernel enforces \(plan.unenforced.map(\.setting).joined(separator: " and ")) there only per process (rlimits): no \(plan.unenforced.map(\.controller).joined(separator: " or ")) controller was delegated",
                metadata: ["cgroup": "\(service)"])
        }
        return DelegatedCgroups(service: service, plan: plan, logger: logger)
    }

    /// The group for the next launch, with its limits written and its `cgroup.procs` open;
    /// nil when it cannot be made (said once: that launch is still swept at its end).
    func makeGroup(memoryMax: Int, cpuQuota: Int) -> LaunchCgroup? {
        let name = LaunchCgroupPlan.launchName(sequence.add(1, ordering: .relaxed).newValue)
        let path = service + "/" + name
        guard mkdir(path, 0o755) == 0 else {
            refuse(path, "mkdir: \(String(cString: strerror(errno)))")
            return nil
        }
        for file in plan.limitFiles(memoryMax: memoryMax, cpuQuota: cpuQuota)
        where !LaunchCgroup.write(file.value, to: path + "/" + file.name) {
            refuse(path, "\(file.name) = \(file.value): \(String(cString: strerror(errno)))")
            rmdir(path)
            return nil
        }
        let procs = open(path + "/cgroup.procs", O_WRONLY | O_CLOEXEC)
        guard procs >= 0 else {
            refuse(path, "cgroup.procs: \(String(cString: strerror(errno)))")
            rmdir(path)
            return nil
        }
        return LaunchCgroup(path: path, procs: procs)
    }

    /// Removes the launch's group, already killed (`LaunchCgroup.end`), and any an earlier
    /// launch's end left, until `deadline`.
    func remove(_ group: LaunchCgroup, until deadline: ContinuousClock.Instant) {
        let waiting = leftover.withLock { list in
            let all = list + [group]
            list = []
            return all
        }
        var still: [LaunchCgroup] = []
        for group in waiting {
            group.end(until: deadline)
            if !group.remove(until: deadline) { still.append(group) }
        }
        if !still.isEmpty { leftover.withLock { $0 += still } }
    }

    /// Kills every launch's group (shutdown).
    func killAll() {
        for name in (try? FileManager.default.contentsOfDirectory(atPath: service)) ?? []
        where LaunchCgroupPlan.isLaunchName(name) {
            _ = LaunchCgroup.write("1", to: service + "/" + name + "/cgroup.kill")
        }
    }

    /// Whether systemd marked `group` as delegated (`Delegate=`): the `user.delegate` extended
    /// attribute, readable by the service's own user. A group systemd did not hand over is
    /// its to manage, even where the daemon (run as root) could write to it.
    private static func isDelegated(_ group: String) -> Bool {
        var value = [UInt8](repeating: 0, count: 8)
        let count = widgetd_getxattr(group, "user.delegate", &value, UInt(value.count))
        return count == 1 && value[0] == UInt8(ascii: "1")
    }

    /// Groups a previous run of the daemon left (it was killed before its launches ended):
    /// whatever still runs in them is killed, and they are removed.
    private static func removeLeftovers(in service: String) {
        let deadline = ContinuousClock.now + .seconds(2)
        for name in (try? FileManager.default.contentsOfDirectory(atPath: service)) ?? []
        where LaunchCgroupPlan.isLaunchName(name) {
            let group = LaunchCgroup(path: service + "/" + name, procs: -1)
            group.end(until: deadline)
            _ = group.remove(until: deadline)
        }
    }

    private func refuse(_ path: String, _ reason: String) {
        guard !failed.exchange(true, ordering: .relaxed) else { return }
        logger.warning(
            "a provider launch runs without a cgroup of its own; it is still swept at its end and held to its rlimits",
            metadata: ["cgroup": "\(path)", "reason": "\(reason)"])
    }
}
