import Foundation
import Testing

@testable import WidgetCore
@testable import WidgetTestSupport

/// `ReloadScheduler` (timing wheels, id table) against `ReferenceScheduler` (the same rules over
/// heaps and a dictionary): random sequences of every operation, including a clock that goes
/// back, budgets that defer and coalescing windows that merge, must give identical answers.
@Suite("Scheduler against the heap-based reference")
struct SchedulerDifferentialTests {
    /// What one run draws from.
    struct Shape {
        var seed: UInt64
        var instances = 40
        var providers = 4
        var steps = 6_000
        /// The coalescing window to start with (an operation changes it now and then).
        var window: TimeInterval
        /// The budget to start with (an operation changes it now and then).
        var budget = ReloadBudget(limit: 70, spacing: 300, enabled: true)
        /// A due date relative to now.
        var offset: (inout SplitMix64) -> TimeInterval
        /// How far one pop moves the clock forward.
        var advance: (inout SplitMix64) -> TimeInterval
        var sequenceLimit: UInt32?
    }

    /// The two schedulers, fed the same calls; every answer is compared.
    struct Pair {
        var sut: ScheduleFixture
        var model: ReferenceScheduler

        init(window: TimeInterval, budget: ReloadBudget) {
            sut = ScheduleFixture(budget: budget, coalescingWindow: window)
            model = ReferenceScheduler(budget: budget, coalescingWindow: window)
        }

        mutating func apply(_ change: (inout ScheduleFixture) -> Void, _ same: (inout ReferenceScheduler) -> Void) {
            change(&sut)
            same(&model)
        }

        func compareSummary(_ context: String) {
            #expect(sut.nextDeadline() == model.nextDeadline(), "\(context)")
            #expect(sut.instanceCount == model.instanceCount, "\(context)")
            #expect(sut.heldEntries == model.heldEntries, "\(context)")
        }

        func compareAll(ids: [InstanceID], kinds: [String], _ context: String) {
            compareSummary(context)
            #expect(sut.pendingReloads() == model.pendingReloads(), "\(context)")
            #expect(sut.pendingReloadCount == model.pendingReloadCount, "\(context)")
            for kind in kinds { #expect(sut.instances(ofKind: kind).sorted() == model.instances(ofKind: kind).sorted(), "\(context)") }
            for id in ids {
                #expect(sut.contains(id) == model.contains(id))
                #expect(sut.isInFlight(id) == model.isInFlight(id))
                #expect(sut.budgetHistory(id) == model.budgetHistory(id))
                #expect(sut.pendingReload(for: id) == model.pendingReload(for: id))
                #expect(sut.pendingRequest(id)?.reason == model.pendingRequest(id)?.reason)
                #expect(sut.pendingRequest(id)?.wanted == model.pendingRequest(id)?.wanted)
            }
        }
    }

    func run(_ shape: Shape) {
        var rng = SplitMix64(seed: shape.seed)
        let ids = (0..<shape.instances).map { "i\($0)" }
        let kinds = ["k0", "k1", "k2"]
        // "" is a kind without a provider.
        let keys = [""] + (0..<shape.providers).map { "p\($0)" }
        let windows: [TimeInterval] = [0, 0, 5, 60, 3_600]
        var pair = Pair(window: shape.window, budget: shape.budget)
        if let limit = shape.sequenceLimit { pair.sut.sequenceLimit = limit }
        var now = t0
        var inFlight: [InstanceID] = []
        // `hidden` names a held reload in listings; nothing asks for a reload under it.
        let reasons = ReloadReason.allCases.filter { $0 != .hidden }

        func pick() -> InstanceID { ids[Int(rng.next() % UInt64(ids.count))] }
        func date() -> Date { now + shape.offset(&rng) }
        func maybeDate() -> Date? { rng.next() % 6 == 0 ? nil : date() }
        /// A launch ends: a new timeline, or a failure and a retry.
        func finish(_ id: InstanceID) {
            let due = maybeDate()
            if rng.next() % 4 == 0 {
                let retry = date()
                pair.apply({ $0.failed(id, policyDue: due, retryAt: retry) }, { $0.failed(id, policyDue: due, retryAt: retry) })
            } else {
                pair.apply({ $0.completed(id, policyDue: due) }, { $0.completed(id, policyDue: due) })
            }
        }

        for step in 0..<shape.steps {
            let id = pick()
            switch rng.next() % 100 {
            case 0..<8:
                let kind = kinds[Int(rng.next() % 3)]
                let key = keys[Int(rng.next() % UInt64(keys.count))]
                pair.apply({ $0.add(id, kind: kind, providerKey: key) }, { $0.add(id, kind: kind, providerKey: key) })
            case 8..<10:
                pair.apply({ $0.remove(id) }, { $0.remove(id) })
            case 10..<12:
                let key = keys[Int(rng.next() % UInt64(keys.count))]
                pair.apply({ $0.updateProvider(id, providerKey: key) }, { $0.updateProvider(id, providerKey: key) })
            case 12..<32:
                let due = maybeDate()
                pair.apply({ $0.setPolicyDue(id, due) }, { $0.setPolicyDue(id, due) })
            case 32..<44:
                let reason = reasons[Int(rng.next() % UInt64(reasons.count))]
                let wanted = date()
                let merged = pair.sut.mergedRequest(id, reason: reason, at: wanted)
                let expected = pair.model.mergedRequest(id, reason: reason, at: wanted)
                #expect(merged.reason == expected.reason && merged.wanted == expected.wanted)
                pair.apply({ $0.request(id, reason: reason, at: wanted) }, { $0.request(id, reason: reason, at: wanted) })
            case 44..<56:
                let change = maybeDate()
                pair.apply({ $0.setNextEntryChange(id, change) }, { $0.setNextEntryChange(id, change) })
            case 56..<66 where !inFlight.isEmpty:
                finish(inFlight.remove(at: Int(rng.next() % UInt64(inFlight.count))))
            case 66 where rng.next() % 4 == 0:
                let limit = [0, 1, 3, 70][Int(rng.next() % 4)]
                let spacing: TimeInterval = [0, 10, 300][Int(rng.next() % 3)]
                let enabled = rng.next() % 4 != 0
                let hiddenAfter: TimeInterval = [0, 600, 21_600][Int(rng.next() % 3)]
                let budget = ReloadBudget(
                    limit: limit, spacing: spacing, enabled: enabled, hiddenAfter: hiddenAfter,
                    hiddenLimit: [nil, 1, 2][Int(rng.next() % 3)])
                pair.apply({ $0.updateBudget(budget) }, { $0.updateBudget(budget) })
            case 67:
                let dates = (0..<Int(rng.next() % 4)).map { _ in now - TimeInterval(rng.next() % 90_000) }
                pair.apply({ $0.restoreHistory(id, dates: dates) }, { $0.restoreHistory(id, dates: dates) })
            case 68:
                // The clock goes back, by up to two days.
                let old = now
                now -= TimeInterval(1 + rng.next() % 172_800)
                let stepped = now
                pair.apply({ $0.clockSteppedBack(from: old, to: stepped) }, { $0.clockSteppedBack(from: old, to: stepped) })
            case 69 where rng.next() % 4 == 0:
                let window = windows[Int(rng.next() % 5)]
                pair.apply({ $0.coalescingWindow = window }, { $0.coalescingWindow = window })
            case 70..<74:
                // A host shows the instance, stops showing it, or it was last shown long ago.
                let showing = rng.next() % 3 == 0
                let last: Date? = rng.next() % 5 == 0 ? nil : now - TimeInterval(rng.next() % 100_000)
                let hidden = showing ? nil : last
                pair.apply({ $0.setHiddenSince(id, hidden) }, { $0.setHiddenSince(id, hidden) })
                #expect(pair.sut.budgetLimit(id, now: now) == pair.model.budgetLimit(id, now: now))
            default:
                // A wake-up, on time or late; now and then at an earlier instant than the last
                // (a virtual clock set back without a step notice).
                if rng.next() % 20 == 0 {
                    now -= TimeInterval(rng.next() % 7_200)
                } else if let deadline = pair.model.nextDeadline(), rng.next() % 2 == 0 {
                    now = max(now, deadline)
                } else {
                    now += shape.advance(&rng)
                }
                let at = now
                let events = pair.sut.popDue(now: at)
                let expected = pair.model.popDue(now: at)
                #expect(events == expected, "step \(step)")
                // Most launches end before the next step; the others some steps later.
                for case .reload(let batch) in expected {
                    for member in batch.members {
                        if rng.next() % 3 == 0 { inFlight.append(member.instance) } else { finish(member.instance) }
                    }
                }
            }
            pair.compareSummary("step \(step)")
            if step % 200 == 0 { pair.compareAll(ids: ids, kinds: kinds, "step \(step)") }
        }
        pair.compareAll(ids: ids, kinds: kinds, "end")
    }

    @Test func fewInstancesAndWholeSecondsMakeTiesAndMerges() {
        run(Shape(
            seed: 0xD1F_0001, window: 60,
            budget: ReloadBudget(limit: 5, spacing: 10, enabled: true, hiddenAfter: 600, hiddenLimit: 2), offset: { TimeInterval(Int64($0.next() % 120) - 20) },
            advance: { TimeInterval($0.next() % 30) }))
    }

    @Test func ticksAreRenumberedWithoutChangingTheOrder() {
        run(Shape(
            seed: 0xD1F_0002, window: 5, offset: { TimeInterval(Int64($0.next() % 120) - 20) },
            advance: { TimeInterval($0.next() % 30) }, sequenceLimit: 60))
    }

    @Test func datesFromSecondsToMonthsAhead() {
        // Fractional dates spread over every level of the wheel; wake-ups from seconds to days apart.
        run(Shape(
            seed: 0xD1F_0003, instances: 300, providers: 6, steps: 12_000, window: 3_600,
            offset: { rng in
                let scale = [1.0, 60, 3_600, 86_400, 2_592_000][Int(rng.next() % 5)]
                return scale * (Double(rng.next() % 1_000_000) / 1_000_000) - 30
            },
            advance: { rng in [1.0, 60, 3_600, 86_400][Int(rng.next() % 4)] * Double(rng.next() % 100) / 100 }))
    }

    @Test func noWindow() {
        run(Shape(
            seed: 0xD1F_0005, window: 0, budget: ReloadBudget(limit: 70, spacing: 0, enabled: false), offset: { TimeInterval(Int64($0.next() % 600) - 20) / 4 },
            advance: { TimeInterval($0.next() % 30) / 2 }))
    }

    @Test func manyInstancesOnOneProvider() {
        run(Shape(
            seed: 0xD1F_0004, instances: 500, providers: 1, steps: 10_000, window: 60,
            budget: ReloadBudget(limit: 70, spacing: 0, enabled: false),
            // Tens of seconds: many reloads are wanted exactly at the window's edge.
            offset: { TimeInterval(10 * ($0.next() % 720)) },
            advance: { TimeInterval(10 * ($0.next() % 12)) }))
    }
}
