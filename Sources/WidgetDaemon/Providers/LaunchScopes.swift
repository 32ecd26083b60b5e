import CLaunchScope
import Foundation
import Logging
import Synchronization

/// Under systemd, each provider launch in a transient scope of its own, as desktop launchers
/// start applications: the service manager holds the launch's processes in one control
/// group, under `MemoryMax=` and `CPUQuota=` for all of them together, and the launch's end
/// kills the whole group, which a process that left the provider's group or session
/// (`setsid`, a double fork) cannot leave. Outside systemd the subreaper and the sweep
/// (`LaunchContainment`) do what they can without one, and they run under systemd too.
///
/// The user's manager starts scopes for its own user (a user service). The system's manager
/// asks polkit whether an unprivileged caller may: without a rule that lets the service's user,
/// the first launch finds out, says so once, and launches go on without scopes.
final class LaunchScopes: Sendable {
    /// The user's manager (a user service) or the system's.
    let user: Bool
    private let logger: Logger
    /// Whether the manager still starts scopes: false once it refused.
    private let usable = Atomic<Bool>(true)
    private let sequence = Atomic<UInt64>(0)

    /// How long a launch waits for its scope before it goes on without one.
    static let startTimeoutMicroseconds: UInt64 = 5_000_000

    init(user: Bool, logger: Logger) {
        self.user = user
        self.logger = logger
    }

    /// Scopes for the daemon's launches when a service manager started it (`INVOCATION_ID` is
    /// set for every unit's processes), nil otherwise.
    static func underSystemd(userService: Bool, logger: Logger) -> LaunchScopes? {
        guard let invocation = ProcessInfo.processInfo.environment["INVOCATION_ID"], !invocation.isEmpty else { return nil }
        return LaunchScopes(user: userService, logger: logger)
    }

    /// Moves the provider `pid` into a new scope; nil when the manager cannot (then the launch
    /// runs in the daemon's own group, under its rlimits, swept at its end as outside systemd).
    func contain(_ pid: pid_t, program: String, memoryMax: Int, cpuQuota: Int) -> LaunchScope? {
        guard usable.load(ordering: .relaxed) else { return nil }
        var bus: OpaquePointer?
        let opened = widgetd_scope_bus_open(&bus, user ? 1 : 0)
        guard opened >= 0, let bus else {
            refuse("cannot reach the service manager: \(String(cString: strerror(-opened)))")
            return nil
        }
        let number = sequence.add(1, ordering: .relaxed).newValue
        let name = "widgetd-launch-\(getpid())-\(number).scope"
        var error = [CChar](repeating: 0, count: 512)
        let started = widgetd_scope_start(
            bus, name, "widgetd provider \(program)", pid, UInt64(memoryMax),
            // CPUQuota= in per cent of one CPU, as µs of CPU time per second.
            UInt64(cpuQuota) * 10_000, Self.startTimeoutMicroseconds, &error, error.count)
        guard started >= 0 else {
            widgetd_scope_bus_close(bus)
            let reason = String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            // A provider that exited at once leaves no process to move: that is not a refusal.
            if kill(pid, 0) == 0 { refuse(reason) }
            return nil
        }
        return LaunchScope(bus: bus, name: name, pid: pid)
    }

    /// The manager will not start scopes: said once, and launches go on without them.
    private func refuse(_ reason: String) {
        guard usable.exchange(false, ordering: .relaxed) else { return }
        logger.warning(
            "provider launches run without a scope of their own; each is still swept at its end and held to its rlimits",
            metadata: ["manager": "\(user ? "user" : "system")", "reason": "\(reason)"])
    }
}
