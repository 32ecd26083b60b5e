import Foundation
import Testing
@testable import WidgetIntegrationSupport

extension Integration {
    /// Clock jumps (docs/overview.md), on the real clock: CLOCK_REALTIME stepped forward one hour and
    /// back, with widgetd's `WallClockWatcher` (a timerfd with TFD_TIMER_CANCEL_ON_SET) waking
    /// the loop. Runs only as root with CAP_SYS_TIME; the clock is wrong for a few seconds at
    /// most and is always put back from CLOCK_MONOTONIC.
    @Suite struct RealClockSteps {
        /// One entry at the daemon's `now`, policy after(now + 1 h); each launch appends its
        /// `now` to launches.log.
        static func inAnHourWidget(_ fixture: DaemonFixture) throws {
            try fixture.provider("in-an-hour", """
                #!/bin/sh
                request=$(cat)
                now=$(printf '%s' "$request" | sed -n 's/.*"now":"\\([^"]*\\)".*/\\1/p')
                echo "$now 1" >> "$1"
                t=$(date -u -d "$now" +%s)
                later=$(date -u -d "@$(( t + 3600 ))" +%Y-%m-%dT%H:%M:%SZ)
                printf '{"entries":[{"date":"%s","content":{"n":1}}],"policy":{"after":"%s"}}\\n' "$now" "$later"
                """)
            try fixture.descriptor("test.in-an-hour", exec: ["./in-an-hour", fixture.launchLog], intent: DaemonFixture.testIntent)
        }

        /// Timed on the monotonic clock: these tests move the wall clock by an hour.
        static func waitFor(_ timeout: Double, _ done: () -> Bool) -> Bool {
            let deadline = ContinuousClock.now + .milliseconds(Int(timeout * 1000))
            while !done() {
                guard ContinuousClock.now < deadline else { return false }
                usleep(10_000)
            }
            return true
        }

        @Test func aReloadDueInAnHourRunsOnceRightAfterTheClockJumpsAnHour() throws {
            if let reason = RealClockStepper.unavailableReason {
                print("real clock steps: skipped (\(reason)); stepping CLOCK_REALTIME needs root with CAP_SYS_TIME")
                return
            }
            let fixture = try DaemonFixture()
            try Self.inAnHourWidget(fixture)
            try fixture.start(clock: nil)
            let id = try fixture.add("test.in-an-hour")
            try #require(Self.waitFor(60) { fixture.launches().count == 1 }, "first load: \(fixture.log())")
            try #require(Self.waitFor(30) { fixture.ctl("--json", "schedule").array.first?["reason"] as? String == "policy" })
            let due = fixture.ctl("--json", "schedule").array.first?["due"] as? String
            let statusBefore = fixture.ctl("--json", "status").object["nextWakeup"] as? String
            print("real clock steps: reload due \(due ?? "-"), next wake-up \(statusBefore ?? "-")")
            let watch = try ClockStepWatch(fixture)

            // The window in which the machine's clock is wrong: a few seconds.
            let stepper = RealClockStepper()
            defer { stepper.restore() }
            let stepped = ContinuousClock.now
            try stepper.step(to: 3600)
            let reloaded = Self.waitFor(20) { fixture.launches().count >= 2 }
            let latency = ContinuousClock.now - stepped
            // Give a second reload the chance to happen, then step back.
            usleep(1_000_000)
            let launchesAhead = fixture.launches().count
            try stepper.step(to: 0)
            let window = ContinuousClock.now - stepped
            print("real clock steps: +1 h: reload after \(latency) (the loop would otherwise sleep ~1 h); clock wrong for \(window)")
            #expect(stepper.restored)
            #expect(reloaded, "no reload within 20 s of the step; log:\n\(fixture.log())")
            #expect(launchesAhead == 2)

            // Back an hour: the reload is not run again, the next one is an hour after it, and the
            // budgeted reload made "in the future" lets the next one run 5 min from now.
            usleep(3_000_000)
            #expect(fixture.launches().count == 2)
            let schedule = fixture.ctl("--json", "schedule").array.first
            let budget = fixture.ctl("--json", "budget", id).object
            print("real clock steps: after -1 h: schedule \(schedule ?? [:]), budget \(budget)")
            let now = Date()
            if let nextAllowed = (budget["nextAllowed"] as? String).flatMap(Self.date) {
                #expect(nextAllowed.timeIntervalSince(now) <= 300 + 5)
            } else {
                Issue.record("no nextAllowed in \(budget)")
            }
            if let next = (schedule?["due"] as? String).flatMap(Self.date) {
                #expect(next.timeIntervalSince(now) > 3000)
            }
            let reloads = watch.events("reload")
            #expect(reloads.count == 1)
            let steps = fixture.log().components(separatedBy: "wall clock stepped").count - 1
            #expect(steps == 2, "both steps seen by the loop")
        }

        static func date(_ text: String) -> Date? {
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            return formatter.date(from: text) ?? ISO8601DateFormatter().date(from: text)
        }
    }
}
