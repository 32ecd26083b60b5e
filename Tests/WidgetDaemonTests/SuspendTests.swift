import Foundation
import Synchronization
import Testing
import WidgetCore
@testable import WidgetDaemon
@testable import WidgetTestSupport

/// Time across suspend and wall-clock steps on the real clock's code path (docs/overview.md):
/// the wake-up timer runs on the monotonic clock, and a resume or a step reaches the engine as
/// `WallClockWatcher` calls `tick`. There is one armed timer at any time, and each deadline costs
/// one timer firing and one pass over what is due.
@Suite struct SuspendTests {
    /// What the engine counted: timers that ran a pass, and passes over what is due.
    static func counts(_ harness: Harness) async -> (timers: Int, passes: Int) {
        await harness.inspect { ($0.time.wake.timersRun, $0.time.wake.duePasses) }
    }

    /// A pushed timeline with an entry at each of `times` (HH:MM on 2026-01-05), policy never.
    static func push(_ harness: Harness, _ times: [String]) async throws -> String {
        let id = try await harness.add("k.push")
        let entries = times.map { #"{"date":"2026-01-05T\#($0):00Z","content":"\#($0)"}"# }.joined(separator: ",")
        let pushed = await harness.call("push", #"{"id":"\#(id)","timeline":{"entries":[\#(entries)],"policy":"never"}}"#)
        #expect(pushed.errorCode == nil)
        return id
    }

    static func harness(_ clocks: ManualClocks) throws -> Harness {
        try Harness(
            virtualStart: nil, descriptors: #"{"kind":"k.push","supportedFamilies":["systemSmall"]}"#,
            wallClock: { clocks.wall }, bootClock: { clocks.boot }, armTimer: clocks.armTimer)
    }

    @Test func wallClockStepsLeaveOneTimerAndADeadlineCostsOnePass() async throws {
        let clocks = ManualClocks(wall: "2026-01-05T08:00:00Z")
        let harness = try Self.harness(clocks)
        _ = try await Self.push(harness, ["08:00", "09:00", "10:00"])
        #expect(clocks.live == 1)

        // Each step reaches the engine as the watcher's tick; a step back a minute applies the
        // rules of a step back, the others only carry out what is due.
        for step in [120.0, -60, 5, 0] {
            clocks.step(step)
            await harness.inspect { $0.tick() }
            #expect(clocks.live == 1, "after a step of \(step) s: \(clocks.live) timers armed, due in \(clocks.liveDelays) s")
        }
        // A cancelled timer that runs anyway is ignored: no pass, no timer armed.
        let beforeStale = await Self.counts(harness)
        let armedBeforeStale = clocks.armed
        for fire in clocks.cancelledFires { await harness.inspect { _ in fire() } }
        let afterStale = await Self.counts(harness)
        #expect(afterStale.passes == beforeStale.passes && afterStale.timers == beforeStale.timers)
        #expect(clocks.armed == armedBeforeStale && clocks.live == 1)

        let before = await Self.counts(harness)
        let fired = await clocks.run(until: "2026-01-05T09:30:00Z", harness)
        let after = await Self.counts(harness)
        print(
            "wall-clock steps: 4 steps, then the 09:00 deadline: \(fired) timer firings, "
                + "\(after.passes - before.passes) passes, \(clocks.armed) timers armed in all")
        #expect(fired == 1)
        #expect(after.timers - before.timers == 1)
        #expect(after.passes - before.passes == 1)
        #expect(clocks.live == 1)
    }

    @Test func aTwoHourSuspendRunsWhatCameDueAtResumeAndLeavesNoTimerBehind() async throws {
        let clocks = ManualClocks(wall: "2026-01-05T08:00:00Z")
        let harness = try Self.harness(clocks)
        let engine = harness.engine
        let later = ["10:15", "10:30", "10:45", "11:00"]
        _ = try await Self.push(harness, ["08:00", "09:00", "09:30", "10:00"] + later)
        #expect(clocks.liveDelays == [3600])

        let seen = Mutex<[Data]>([])
        let subscriber = Subscriber { line in seen.withLock { $0.append(Data(line.readableBytesView)) } }
        engine.events.subscribe(subscriber)
        defer { engine.events.unsubscribe(subscriber) }

        // Asleep two hours: the timer set for 09:00 did not fire; the resume is the watcher's tick.
        clocks.suspend(7200)
        let before = await Self.counts(harness)
        await harness.inspect { $0.tick() }
        let resumed = await Self.counts(harness)
        let told = RealClockCatchUpTests.events(seen.withLock { $0 })
        print(
            "suspend 2 h: at resume \(told.count) entry changes in \(resumed.passes - before.passes) pass; "
                + "timers armed \(clocks.live), due in \(clocks.liveDelays) s")
        #expect(told.map(\.0) == Array(repeating: "entryChange", count: 3))
        #expect(told.map(\.2) == ["09:00", "09:30", "10:00"])
        #expect(resumed.passes - before.passes == 1)
        #expect(resumed.timers == before.timers)
        #expect(clocks.live == 1)
        #expect(clocks.liveDelays == [900])

        // The hour after: each deadline, one firing, one pass, its entry change.
        var figures: [String] = []
        for time in later {
            seen.withLock { $0 = [] }
            let start = await Self.counts(harness)
            let fired = await clocks.run(until: "2026-01-05T\(time):00Z", harness)
            let end = await Self.counts(harness)
            let changes = RealClockCatchUpTests.events(seen.withLock { $0 })
            figures.append("\(time): \(fired) firings, \(end.passes - start.passes) passes")
            #expect(fired == 1, "\(time)")
            #expect(end.timers - start.timers == 1, "\(time)")
            #expect(end.passes - start.passes == 1, "\(time)")
            #expect(changes.map(\.2) == [time])
        }
        print("suspend 2 h: the hour after: \(figures.joined(separator: "; ")); \(clocks.armed) timers armed in all, \(clocks.live) left")
        #expect(clocks.live == 0, "the last entry is shown: no timer should be left, found \(clocks.liveDelays)")
    }

    @Test func repeatedSuspendsLeaveOneTimerForEachDeadline() async throws {
        let clocks = ManualClocks(wall: "2026-01-05T08:00:00Z")
        let harness = try Self.harness(clocks)
        let times = (0...8).map { String(format: "%02d:%02d", 8 + $0 / 2, $0 % 2 * 30) }
        _ = try await Self.push(harness, times)

        // Three naps of 10 min, each between two deadlines, each resume the watcher's tick.
        for nap in ["08:10", "08:40", "09:10"] {
            await clocks.run(until: "2026-01-05T\(nap):00Z", harness)
            clocks.suspend(600)
            await harness.inspect { $0.tick() }
        }
        #expect(clocks.live == 1, "after three resumes: \(clocks.live) timers armed, due in \(clocks.liveDelays) s")
        let start = await Self.counts(harness)
        let fired = await clocks.run(until: "2026-01-05T12:00:00Z", harness)
        let end = await Self.counts(harness)
        // From the last resume (09:20) to 12:00: six deadlines, 09:30 to 12:00.
        print(
            "three suspends of 10 min, then 6 deadlines: \(fired) timer firings, \(end.passes - start.passes) passes, "
                + "\(clocks.armed) timers armed in all, \(clocks.live) left")
        #expect(fired == 6)
        #expect(end.timers - start.timers == 6)
        #expect(end.passes - start.passes == 6)
        #expect(clocks.live == 0)
    }

    /// logind's path: `PrepareForSleep(true)` returns once the commits are stored, and at
    /// `PrepareForSleep(false)` what came due runs in one step; the wall-clock watcher's tick,
    /// which a resume also sets off, then finds nothing more and arms no second timer.
    @Test func logindsResumeRunsWhatCameDueInOneStepAndTheWatchersTickAddsNothing() async throws {
        let clocks = ManualClocks(wall: "2026-01-05T08:00:00Z")
        let harness = try Self.harness(clocks)
        let engine = harness.engine
        _ = try await Self.push(harness, ["08:00", "09:00", "09:30", "10:00", "10:15"])
        let seen = Mutex<[Data]>([])
        let subscriber = Subscriber { line in seen.withLock { $0.append(Data(line.readableBytesView)) } }
        engine.events.subscribe(subscriber)
        defer { engine.events.unsubscribe(subscriber) }

        await engine.prepareForSleep()
        #expect(await harness.inspect { $0.commits.flight.isIdle }, "commits still being stored when sleep may go on")
        clocks.suspend(7200)
        let before = await Self.counts(harness)
        await harness.inspect { $0.resumedFromSleep() }
        let resumed = await Self.counts(harness)
        #expect(RealClockCatchUpTests.events(seen.withLock { $0 }).map(\.2) == ["09:00", "09:30", "10:00"])
        #expect(resumed.passes - before.passes == 1)
        #expect(resumed.timers == before.timers)
        #expect(clocks.live == 1 && clocks.liveDelays == [900])

        seen.withLock { $0 = [] }
        await harness.inspect { $0.tick() }
        #expect(RealClockCatchUpTests.events(seen.withLock { $0 }).isEmpty)
        #expect(clocks.live == 1 && clocks.liveDelays == [900], "after the watcher's tick: \(clocks.liveDelays)")
        let fired = await clocks.run(until: "2026-01-05T10:15:00Z", harness)
        #expect(fired == 1)
        #expect(clocks.live == 0)
        #expect(await harness.inspect { ($0.time.wake.sleeps, $0.time.wake.resumes) } == (1, 1))
    }
}
