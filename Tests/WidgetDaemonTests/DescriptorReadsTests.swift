import Synchronization
import Testing
import WidgetCore
import WidgetProtocol
@testable import WidgetDaemon

/// Reads of the widgets directories: one at a time, and every ask made meanwhile shares the
/// next, so a flood of `widgets.reload` queues one read, not one per request.
@Suite struct DescriptorReadsTests {
    /// Which waiters were called, in order.
    final class Seen: Sendable {
        let tags = Mutex<[Int]>([])
    }

    private func ask(_ trigger: DescriptorReadTrigger, _ settings: DaemonSettings? = nil, _ seen: Seen? = nil, _ tag: Int = 0)
        -> DescriptorReads.Ask
    {
        .init(trigger: trigger, settings: settings, waiting: [{ _ in seen?.tags.withLock { $0.append(tag) } }])
    }

    @Test func aReadStartsAtOnceWhenNoneRuns() throws {
        // The ask is given back to be started.
        var reads = DescriptorReads()
        let asked = reads.ask(ask(.watch))
        let started = try #require(asked)
        #expect(started.trigger == .watch)
        #expect(reads.running)
        let none = reads.finished()
        #expect(none == nil)
        #expect(!reads.running)
    }

    @Test func asksDuringAReadShareTheNextOne() throws {
        var reads = DescriptorReads()
        _ = reads.ask(ask(.watch))
        let seen = Seen()
        var settings = DaemonSettings()
        settings.limits.maxDescriptorFiles = 7
        for index in 0..<1000 {
            let trigger: DescriptorReadTrigger = index == 500 ? .signal : index.isMultiple(of: 2) ? .request : .watch
            let queued = reads.ask(ask(trigger, index == 500 ? settings : nil, seen, index))
            #expect(queued == nil)
        }
        let finished = reads.finished()
        let next = try #require(finished)
        // The weightiest trigger and the settings a SIGHUP brought, and every waiter.
        #expect(next.trigger == .signal)
        #expect(next.settings?.limits.maxDescriptorFiles == 7)
        #expect(next.waiting.count == 1000)
        for done in next.waiting { done(DescriptorChanges()) }
        #expect(seen.tags.withLock { $0 } == Array(0..<1000))
        #expect(reads.running)
        let last = reads.finished()
        #expect(last == nil)
        #expect(!reads.running)
    }
}
