import Foundation
import Testing
@testable import WidgetCore
@testable import WidgetTestSupport

/// Stack evaluations that keep what they read of each member's relevance (`RankingMemo`)
/// decide exactly as evaluations that read everything anew: two copies of random states are
/// stepped side by side on the virtual clock's rules, one with its memos forgotten before
/// every evaluation, with pushes, swipes and donations in between.
@Suite struct RankingMemoTests {
    @Test(arguments: 0..<12 as Range<UInt64>) func keptReadsDecideAsFreshOnes(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        var settings = DaemonSettings()
        settings.rotation.minimumDwell = Double(random.next() % 4) * 900
        settings.rotation.hourlyCap = 1 + Int(random.next() % 4)
        var state = makeState(settings: settings)
        let cities = ["Paris", "Oslo", "Lima", "Pune"]
        var ids: [InstanceID] = []
        for stack in 0..<4 {
            let name = "s\(stack)"
            state.apply(try state.planCreateStack(name, smartRotate: random.next() % 5 != 0, at: t0, reserved: LimitReservations()))
            for _ in 0..<(2 + Int(random.next() % 4)) {
                let city = cities[Int(random.next() % 4)]
                ids.append(try state.added("k.push", configuration: ["city": .string(city)], stack: name).0)
            }
        }
        func timeline(from start: TimeInterval) -> WidgetTimeline {
            let entries = (0..<(4 + Int(random.next() % 8))).map { index in
                let offset = start + Double(index) * Double(900 * (1 + random.next() % 8))
                let score: Double? = random.next() % 3 == 0 ? nil : Double(random.next() % 100) / 50 - 0.2
                let duration = random.next() % 4 == 0 ? Double(600 * (1 + random.next() % 6)) : 0
                return WidgetEntry(
                    date: t0 + offset, content: .integer(Int64(index)), relevance: score.map { EntryRelevance(score: $0, duration: duration) })
            }
            return WidgetTimeline(entries: entries, policy: .never)
        }
        for id in ids { state.apply(try state.planPush(id, timeline(from: 0), at: t0)) }
        for index in 0..<(1 + Int(random.next() % 5)) {
            let donation = Donation(
                intentType: "Clock", parameters: ["city": .string(cities[Int(random.next() % 4)])],
                date: t0 - Double(random.next() % 86400) - Double(index))
            state.apply(try state.planDonate(donation, at: t0, reserved: LimitReservations()).plan)
        }
        state.apply(state.planEvaluation(state.takeDirtyStacks(), at: t0))

        var kept = state
        var fresh = state
        var now = t0
        var steps = 0
        while let next = kept.nextWake, next <= t0 + 36 * 3600, steps < 5_000 {
            steps += 1
            #expect(fresh.nextWake == next)
            now = max(now, next)
            // Now and then something a person or a provider does, on both copies alike.
            fresh.rankingMemos = [:]
            switch random.next() % 12 {
            case 0:
                let id = ids[Int(random.next() % UInt64(ids.count))]
                let pushed = timeline(from: now.timeIntervalSince(t0) - 900)
                kept.apply(try kept.planPush(id, pushed, at: now))
                fresh.apply(try fresh.planPush(id, pushed, at: now))
            case 1:
                let name = "s\(random.next() % 4)"
                let stack = try kept.stack(name)
                let id = stack.instances[Int(random.next() % UInt64(stack.instances.count))]
                kept.apply(try kept.planSwipe(name, to: id, at: now))
                fresh.apply(try fresh.planSwipe(name, to: id, at: now))
            case 2:
                let donation = Donation(intentType: "Clock", parameters: ["city": .string(cities[Int(random.next() % 4)])], date: now)
                kept.apply(try kept.planDonate(donation, at: now, reserved: LimitReservations()).plan)
                fresh.apply(try fresh.planDonate(donation, at: now, reserved: LimitReservations()).plan)
            default:
                break
            }
            let keptEvents = Self.settle(&kept, at: now, forget: false)
            let freshEvents = Self.settle(&fresh, at: now, forget: true)
            #expect(keptEvents == freshEvents, "at \(now.timeIntervalSince(t0)) s")
            #expect(kept.stacks.stacks == fresh.stacks.stacks)
            #expect(kept.stacks.recheck == fresh.stacks.recheck)
            if keptEvents != freshEvents { break }
        }
        #expect(steps > 20)
    }

    /// One wake-up of the virtual clock (push-only kinds: nothing launches); `forget` drops
    /// every memo first, so each stack reads its members anew.
    static func settle(_ state: inout DaemonState, at now: Date, forget: Bool) -> [StateEvent] {
        let events = state.takeDue(at: now).events
        if forget { state.rankingMemos = [:] }
        let plan = state.planEvaluation(state.takeDirtyStacks(), at: now)
        state.apply(plan)
        return events + plan.events
    }
}
