import Testing
@testable import WidgetDaemon

/// Where the daemon's delegated cgroup is, and what each launch's group gets, from made-up
/// `/proc/self/cgroup` and `/proc/self/mountinfo` texts and controller lists.
@Suite struct LaunchCgroupPlanTests {
    static let hybridCgroup = """
        9:name=systemd:/system.slice/widgetd.service
        4:memory:/
        1:cpu:/
        0::/system.slice/widgetd.service

        """
    static let hybridMounts = """
        700 699 0:40 / /sys/fs/cgroup ro,nosuid,nodev,noexec - tmpfs tmpfs ro,size=4096k
        705 700 0:45 / /sys/fs/cgroup/memory ro,nosuid,nodev,noexec,relatime shared:9 - cgroup cgroup ro,memory
        710 700 0:30 / /sys/fs/cgroup/unified rw,nosuid,nodev,noexec,relatime shared:5 - cgroup2 cgroup rw
        711 700 0:31 / /sys/fs/cgroup/systemd rw,nosuid,nodev,noexec,relatime - cgroup cgroup rw,name=systemd

        """

    @Test func aHybridSystemsGroupIsUnderItsUnifiedMount() {
        #expect(UnifiedCgroup.directory(cgroupFile: Self.hybridCgroup, mountInfo: Self.hybridMounts)
            == "/sys/fs/cgroup/unified/system.slice/widgetd.service")
    }

    @Test func aUnifiedSystemsGroupIsUnderSysFsCgroup() {
        let mounts = "30 23 0:26 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:4 - cgroup2 cgroup2 rw,nsdelegate\n"
        #expect(UnifiedCgroup.directory(cgroupFile: "0::/system.slice/widgetd.service\n", mountInfo: mounts)
            == "/sys/fs/cgroup/system.slice/widgetd.service")
    }

    @Test func aMountOfPartOfTheTreeIsFollowed() {
        // A container's view: the mount's root is the container's own group.
        let mounts = "40 30 0:26 /machine.slice/box /sys/fs/cgroup rw,relatime - cgroup2 cgroup2 rw\n"
        #expect(UnifiedCgroup.directory(cgroupFile: "0::/machine.slice/box/system.slice/w.service\n", mountInfo: mounts)
            == "/sys/fs/cgroup/system.slice/w.service")
        #expect(UnifiedCgroup.directory(cgroupFile: "0::/machine.slice/boxer/w.service\n", mountInfo: mounts) == nil)
    }

    @Test func noUnifiedHierarchyOrTheRootGroupIsNoPlace() {
        let legacy = "705 700 0:45 / /sys/fs/cgroup/memory rw - cgroup cgroup rw,memory\n"
        #expect(UnifiedCgroup.directory(cgroupFile: Self.hybridCgroup, mountInfo: legacy) == nil)
        #expect(UnifiedCgroup.directory(cgroupFile: "0::/\n", mountInfo: Self.hybridMounts) == nil)
        #expect(UnifiedCgroup.directory(cgroupFile: "4:memory:/\n", mountInfo: Self.hybridMounts) == nil)
    }

    @Test func onlyTheWantedControllersThatAreOfferedAreEnabled() {
        #expect(LaunchCgroupPlan.enabling(available: "cpuset cpu io memory pids\n") == ["memory", "cpu"])
        #expect(LaunchCgroupPlan.enabling(available: "hugetlb\n") == [])
        #expect(LaunchCgroupPlan.enabling(available: "") == [])
    }

    @Test func aLaunchsGroupGetsTheLimitsOfItsEnabledControllers() {
        let both = LaunchCgroupPlan(controllers: ["memory", "cpu", "pids"])
        #expect(both.limitFiles(memoryMax: 67_108_864, cpuQuota: 50) == [
            LimitFile(name: "memory.max", value: "67108864"), LimitFile(name: "cpu.max", value: "50000 100000"),
        ])
        // 0 is no limit; a quota past one CPU is a share of several.
        #expect(both.limitFiles(memoryMax: 0, cpuQuota: 250) == [
            LimitFile(name: "memory.max", value: "max"), LimitFile(name: "cpu.max", value: "250000 100000"),
        ])
        #expect(both.limitFiles(memoryMax: 1, cpuQuota: 0).last == LimitFile(name: "cpu.max", value: "max 100000"))
        #expect(both.unenforced.isEmpty)
    }

    @Test func whatNoControllerEnforcesIsNamed() {
        let none = LaunchCgroupPlan(controllers: ["hugetlb"])
        #expect(none.limitFiles(memoryMax: 67_108_864, cpuQuota: 50).isEmpty)
        #expect(none.unenforced.map(\.setting) == ["memory-max", "cpu-quota"])
        #expect(none.unenforced.map(\.controller) == ["memory", "cpu"])
        let memory = LaunchCgroupPlan(controllers: ["memory"])
        #expect(memory.limitFiles(memoryMax: 10, cpuQuota: 50) == [LimitFile(name: "memory.max", value: "10")])
        #expect(memory.unenforced.map(\.setting) == ["cpu-quota"])
    }

    @Test func launchGroupsAreToldFromTheDaemonsLeafAndOthers() {
        #expect(LaunchCgroupPlan.launchName(7) == "launch-7")
        #expect(LaunchCgroupPlan.isLaunchName("launch-7"))
        #expect(!LaunchCgroupPlan.isLaunchName(LaunchCgroupPlan.daemonLeaf))
        #expect(!LaunchCgroupPlan.isLaunchName("launch-"))
        #expect(!LaunchCgroupPlan.isLaunchName("launch-x"))
        #expect(!LaunchCgroupPlan.isLaunchName(".control"))
    }
}
