import CLaunchScope
import Foundation

/// One launch's transient scope (`LaunchScopes`), from the provider's start to the launch's end.
final class LaunchScope {
    let name: String
    private let bus: OpaquePointer
    /// The scope's `memory.events`, opened while the scope exists: the manager removes the
    /// group as soon as its last process exits, and the count of OOM kills with it.
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

    /// Kills every process left in the scope; the manager then collects it.
    func end() {
        _ = widgetd_scope_kill(bus, name)
    }

    /// Whether the kernel killed a process of the scope for going past `MemoryMax=` (nil: not
    /// known, the group is gone already).
    var oomKilled: Bool? {
        guard events >= 0 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 512)
        let count = pread(events, &buffer, buffer.count, 0)
        guard count > 0 else { return nil }
        for line in String(decoding: buffer[0..<count], as: UTF8.self).split(separator: "\n") {
            let fields = line.split(separator: " ")
            if fields.count == 2, fields[0] == "oom_kill" { return (Int(fields[1]) ?? 0) > 0 }
        }
        return nil
    }

    /// `/sys/fs/cgroup/PATH/memory.events` of the group `pid` is in now (cgroup v2).
    private static func openEvents(of pid: pid_t) -> CInt {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/cgroup", encoding: .utf8),
            let line = text.split(separator: "\n").first(where: { $0.hasPrefix("0::") })
        else { return -1 }
        return open("/sys/fs/cgroup\(line.dropFirst(3))/memory.events", O_RDONLY | O_CLOEXEC)
    }
}
