import Foundation
import Testing
import WidgetCore
@testable import WidgetDaemon

/// A request wakes the scheduler loop only when the loop must act before it would wake by itself.
@Suite struct WakeTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func realClockRingsOnlyForAnEarlierDeadline() {
        let loop = now.addingTimeInterval(60)
        func ring(_ next: Date?, loopWakesAt: Date? = nil) -> Bool {
            Engine.mustWakeLoop(next: next, now: now, loopWakesAt: loopWakesAt, virtual: false, stacksWaiting: false)
        }
        #expect(ring(now.addingTimeInterval(30), loopWakesAt: loop))
        #expect(!ring(loop, loopWakesAt: loop))
        #expect(!ring(now.addingTimeInterval(90), loopWakesAt: loop))
        // The loop sleeps until rung: any deadline wakes it.
        #expect(ring(now.addingTimeInterval(3600)))
        #expect(!ring(nil, loopWakesAt: loop))
        // Due now rings even when the loop was about to wake anyway.
        #expect(ring(now, loopWakesAt: now))
    }

    @Test func virtualClockRingsOnlyForWhatIsDueNow() {
        func ring(_ next: Date?) -> Bool {
            Engine.mustWakeLoop(next: next, now: now, loopWakesAt: nil, virtual: true, stacksWaiting: false)
        }
        #expect(ring(now))
        #expect(ring(now.addingTimeInterval(-1)))
        #expect(!ring(now.addingTimeInterval(1)))
        #expect(!ring(nil))
    }

    @Test func stacksWaitingForEvaluationAlwaysRing() {
        #expect(Engine.mustWakeLoop(next: nil, now: now, loopWakesAt: nil, virtual: true, stacksWaiting: true))
    }

    /// Through the engine: a reload the budget defers, or one merged into it, does not ring;
    /// one due now and a new instance do.
    @Test func deferredReloadRequestsDoNotRing() async throws {
        let harness = try Harness()
        let bell = harness.engine.bell
        _ = await harness.call("add", #"{"kind":"k.clock","family":"systemSmall"}"#)
        #expect(bell.takeRing())
        _ = await harness.call("clock.advance", #"{"seconds":0}"#)  // the initial load (exempt)
        _ = await harness.call("reloadTimelines", #"{"kinds":["k.clock"]}"#)
        #expect(bell.takeRing())  // the first budgeted reload is allowed at once
        _ = await harness.call("clock.advance", #"{"seconds":1}"#)
        _ = bell.takeRing()
        for _ in 0..<3 {
            // Now the minimum spacing defers it: nothing is due before the loop would wake.
            _ = await harness.call("reloadTimelines", #"{"kinds":["k.clock"]}"#)
            #expect(!bell.takeRing())
        }
        _ = await harness.call("add", #"{"kind":"k.clock","family":"systemSmall"}"#)
        #expect(bell.takeRing())
    }

    /// On the real clock, a stack change or a donation that sets an earlier stack re-check
    /// (here: the end of the user hold after a swipe) must wake the loop, or the re-check
    /// waits until something else does.
    @Test func stackChangesRingForAnEarlierRecheck() async throws {
        // Relevant for two hours from now: the stack's own re-check is when that lapses.
        let answer = #"{"entries":[{"date":"\#(ISO8601.string(from: Date()))","content":1,"relevance":{"score":1,"duration":7200}}],"policy":"never"}"#
        let harness = try Harness(answer: answer, virtualStart: nil)
        let bell = harness.engine.bell
        var ids: [String] = []
        for _ in 0..<2 {
            let added = await harness.call("add", #"{"kind":"k.clock","family":"systemSmall"}"#)
            ids.append(try #require((added.result as? [String: Any])?["id"] as? String))
        }
        // The loop's part: launch the first loads and wait for them to land.
        _ = await harness.engine.tick()
        for id in ids {
            for _ in 0..<2000 {
                let timeline = await harness.call("timeline", #"{"id":"\#(id)"}"#).result as? [String: Any]
                if timeline?["receivedAt"] is String { break }
                try await Task.sleep(for: .milliseconds(1))
            }
        }
        _ = await harness.call("stack.create", #"{"name":"s"}"#)
        _ = await harness.call("stack.add", #"{"name":"s","instances":["\#(ids[0])","\#(ids[1])"]}"#)
        // Nothing is due now: the loop sleeps until it is rung.
        let (next, _, _) = await harness.engine.tick()
        _ = bell.takeRing()
        _ = await harness.call("stack.swipe", #"{"name":"s","instance":"\#(ids[1])"}"#)
        let recheck = await harness.engine.nextWake()
        #expect(recheck != nil && (next == nil || recheck! < next!), "the swipe's hold sets a re-check")
        #expect(bell.takeRing())
    }
}
