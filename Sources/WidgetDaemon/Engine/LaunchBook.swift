import WidgetCore

/// Provider launches started and not yet applied.
struct LaunchBook {
    struct Running {
        var launch: Launch
        var settlement: Settlement?
        var task: Task<Void, Never>?
    }

    var running: [UInt64: Running] = [:]
    /// Results not yet applied (nil: a launch the shutdown killed, applied as nothing). On the
    /// virtual clock they wait for every earlier launch's: results are applied in the order
    /// the launches started, whatever order the providers finish in.
    var finished: [UInt64: [MemberOutcome]?] = [:]
    /// Results being stored and applied.
    var applying = 0
    /// Who waits for no launch to be running or applying.
    var idleWaiters: [CheckedContinuation<Void, Never>] = []

    var isIdle: Bool { running.isEmpty && applying == 0 }
}
