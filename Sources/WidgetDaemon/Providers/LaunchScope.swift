import CLaunchScope
import Foundation

/// One launch's transient scope (`LaunchScopes`), from the provider's start to the launch's end.
final class LaunchScope: LaunchBoundary {
    let name: String
    private let bus: OpaquePointer
    /// The scope's count of OOM kills (`memory.events` of cgroup v2, `memory.oom_control` of
    /// v1), opened while the scope exists: the manager removes the group as soon as its last
    /// process exits, and the count with it.
    private let events: CInt

    init(bus: OpaquePointer, name: String, pid: pid_t) {
        self.bus = bus
        self.name = name
        events = Self.openEvents(of: pid)
    }

    deinit {
        if events >= 0 { close(events) }
        widgetd_scope_bus_close(bus)
    }

    var memoryLimitName: String { "its scope's MemoryMax=" }

    /// Kills every process left in the scope; the manager then collects it.
    func end() {
        _ = widgetd_scope_kill(bus, name)
    }

    /// Whether the kernel killed a process of the scope for going past `MemoryMax=` (nil: not
    /// known, the group is gone already).
    var oomKilled: Bool? { KernelFile.oomKilled(events: events) }

    /// The file that counts OOM kills in the memory group `pid` is in now: the v1 memory
    /// controller's where it has one (a hybrid or legacy hierarchy), v2's otherwise. Both
    /// count them on an `oom_kill N` line.
    private static func openEvents(of pid: pid_t) -> CInt {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/cgroup", encoding: .utf8) else { return -1 }
        let lines = text.split(separator: "\n")
        let path: String
        if let memory = lines.compactMap({ line -> Substring? in
            let fields = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            return fields.count == 3 && fields[1].split(separator: ",").contains("memory") ? fields[2] : nil
        }).first {
            path = "/sys/fs/cgroup/memory\(memory)/memory.oom_control"
        } else if let unified = lines.first(where: { $0.hasPrefix("0::") }) {
            path = "/sys/fs/cgroup\(unified.dropFirst(3))/memory.events"
        } else {
            return -1
        }
        return open(path, O_RDONLY | O_CLOEXEC)
    }
}
