import Foundation
import NIOCore

/// Where the engine's files are, how it reads the wall clock and CLOCK_BOOTTIME, and where it
/// arms its wake-up timer. A test injects all three clocks to suspend the engine without
/// sleeping: wall and boot time move on while the monotonic timer does not fire.
public struct EngineSetup: Sendable {
    /// Arms a timer that calls `fire` on `loop` after `delay` on the monotonic clock (which
    /// stops during suspend); the closure it returns cancels it.
    public typealias ArmTimer = @Sendable (_ loop: any EventLoop, _ delay: TimeAmount, _ fire: @escaping @Sendable () -> Void)
        -> @Sendable () -> Void

    public var widgetsDirectories: [String]
    public var stateDirectory: String
    public var wallClock: @Sendable () -> Date
    /// CLOCK_BOOTTIME in seconds: it counts suspend and is never set (`EngineClock.wallStep`).
    public var bootClock: @Sendable () -> Double
    public var armTimer: ArmTimer

    public init(
        widgetsDirectories: [String], stateDirectory: String, wallClock: @escaping @Sendable () -> Date = { Date() },
        bootClock: @escaping @Sendable () -> Double = EngineClock.bootTime, armTimer: @escaping ArmTimer = EngineSetup.loopTimer
    ) {
        self.widgetsDirectories = widgetsDirectories
        self.stateDirectory = stateDirectory
        self.wallClock = wallClock
        self.bootClock = bootClock
        self.armTimer = armTimer
    }

    /// The event loop's own timer.
    public static let loopTimer: ArmTimer = { loop, delay, fire in
        let task = loop.scheduleTask(in: delay, fire)
        return { task.cancel() }
    }
}
