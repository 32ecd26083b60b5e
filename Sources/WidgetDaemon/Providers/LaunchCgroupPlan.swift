/// What widgetd does with the cgroup subtree its service manager delegated to it
/// (`Delegate=yes`), decided from what the kernel offers there: the names of its groups,
/// the controllers it enables for them, and the limit files each launch's group gets.
struct LaunchCgroupPlan: Equatable, Sendable {
    /// The leaf the daemon moves itself into: a group with processes of its own cannot hand
    /// controllers to its children (cgroup v2's "no internal processes" rule).
    static let daemonLeaf = "daemon"
    static let launchPrefix = "launch-"
    /// The controllers the limits need: `memory` for `memory-max`, `cpu` for `cpu-quota`.
    static let wanted = ["memory", "cpu"]
    /// `cpu.max`'s period, systemd's default for `CPUQuota=`.
    static let cpuPeriodMicroseconds = 100_000

    /// The controllers enabled for the launches' groups.
    let controllers: Set<String>

    init(controllers: Set<String>) {
        self.controllers = controllers
    }

    /// The wanted controllers among `available` (the words of the service group's
    /// `cgroup.controllers`), in the order to enable them.
    static func enabling(available: String) -> [String] {
        let offered = Set(available.split(whereSeparator: \.isWhitespace).map(String.init))
        return wanted.filter { offered.contains($0) }
    }

    /// The name of the group of the launch numbered `number`.
    static func launchName(_ number: UInt64) -> String {
        "\(launchPrefix)\(number)"
    }

    /// Whether `name` is a launch's group (one a previous run of the daemon may have left).
    static func isLaunchName(_ name: String) -> Bool {
        name.hasPrefix(launchPrefix) && UInt64(name.dropFirst(launchPrefix.count)) != nil
    }

    /// The files written in a launch's group before its provider enters it, and their values:
    /// `memory.max` in bytes and `cpu.max` as a quota of the period, each only where its
    /// controller is enabled; 0 (no limit) writes `max`. `cpuQuota` is in per cent of one CPU.
    func limitFiles(memoryMax: Int, cpuQuota: Int) -> [LimitFile] {
        var files: [LimitFile] = []
        if controllers.contains("memory") {
            files.append(LimitFile(name: "memory.max", value: memoryMax > 0 ? "\(memoryMax)" : "max"))
        }
        if controllers.contains("cpu") {
            let quota = cpuQuota > 0 ? "\(cpuQuota * Self.cpuPeriodMicroseconds / 100)" : "max"
            files.append(LimitFile(name: "cpu.max", value: "\(quota) \(Self.cpuPeriodMicroseconds)"))
        }
        return files
    }

    /// The settings the kernel does not enforce on a launch's group, with the controller each
    /// lacks: said once at start.
    var unenforced: [(setting: String, controller: String)] {
        var missing: [(setting: String, controller: String)] = []
        if !controllers.contains("memory") { missing.append(("memory-max", "memory")) }
        if !controllers.contains("cpu") { missing.append(("cpu-quota", "cpu")) }
        return missing
    }
}
