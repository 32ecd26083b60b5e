import Foundation
import HeapModule
import WidgetCore

// The measured bodies of the in-process core figures. Shared by the ordo-one target
// (`swift package benchmark --target CoreBenchmarks`, for allocations and instructions) and by
// `widgetd-scale core` (ContinuousClock, best of several rounds, figures as JSON lines), so both
// measure exactly the same code. Set-up (filling the structures) happens in the initialisers;
// only `step()` / `evaluate(stack:)` / `pass()` are meant to be timed.

/// Instance ids shaped like the daemon's (8 lowercase hex digits, random-looking), distinct for
/// distinct indexes below 2^32 (an odd multiplier is a bijection modulo 2^32).
public func coreInstanceID(_ index: Int) -> InstanceID {
    let scrambled = UInt32(truncatingIfNeeded: index) &* 0x9E37_79B1 ^ 0x5BD1_E995
    let hex = String(scrambled, radix: 16)
    return String(repeating: "0", count: 8 - hex.count) + hex
}

/// 2026-01-05T00:00:00Z, a Monday: the instant every workload starts from.
public let coreEpoch = Date(timeIntervalSince1970: 1_767_571_200)

// MARK: Scheduler core

/// `ReloadScheduler` holding `instances` instances, each with a policy due date somewhere in the
/// next 24 hours, under the default budget (70 a day, 5 min spacing). Their reload timings are in
/// their records (`InstanceBook`), as in the daemon: every call reads and writes them there. The
/// workload holds each instance's record handle, as the daemon does once it has found an
/// instance by id, and makes every call by handle.
///
/// One operation (`step()`) = reschedule one random instance to a new random due date
/// (`setPolicyDue`), then pop the earliest due reload (`nextDeadline` + `popDue(now:)` at that
/// deadline, the way the daemon's loop does) and complete it with its next due date
/// (`completed(_:policyDue:)`, as when the provider's new timeline arrives), so the number of
/// pending instances stays at `instances`. Instances are spread over `providers` provider keys;
/// with the coalescing window 0 only reloads due at the same instant merge, so a pop is one
/// instance (the merge loop in `popDue` still walks the popped provider's pending set).
public final class SchedulerWorkload: @unchecked Sendable {
    public let instanceCount: Int
    public let providerCount: Int
    public let coalescingWindow: TimeInterval
    private var scheduler: ReloadScheduler
    private var records = InstanceBook()
    private let handles: [RecordHandle]
    private var random: SplitMix64
    private var now: Date
    /// Operations run and reloads popped so far (to check that each pop pops about one).
    public private(set) var operations = 0
    public private(set) var reloads = 0

    public init(instances: Int = 1_000_000, providers: Int = 100, coalescingWindow: TimeInterval = 0, seed: UInt64 = 0x5EED) {
        precondition(instances > 0 && providers > 0)
        var random = SplitMix64(seed: seed)
        let start = coreEpoch
        var scheduler = ReloadScheduler(
            budget: ReloadBudget(limit: 70, spacing: 300, enabled: true), coalescingWindow: coalescingWindow)
        let kinds = (0..<providers).map { "com.bench.kind\($0)" }
        let keys = (0..<providers).map { "/usr/libexec/widgetd-bench/provider-\($0) timeline" }
        var handles: [RecordHandle] = []
        handles.reserveCapacity(instances)
        var records = InstanceBook()
        records.reserveCapacity(instances)
        scheduler.reserveCapacity(instances)
        for index in 0..<instances {
            let id = coreInstanceID(index)
            let record = InstanceRecord(
                instance: WidgetInstance(id: id, kind: kinds[index % providers], family: .systemSmall, configuration: [:], created: start))
            let handle = records.put(record)
            handles.append(handle)
            scheduler.add(handle, kind: record.kind, providerKey: keys[index % providers], in: records)
        }
        for handle in handles {
            scheduler.setPolicyDue(handle, start.addingTimeInterval(SchedulerWorkload.delay(&random)), in: &records)
        }
        instanceCount = instances
        providerCount = providers
        self.coalescingWindow = coalescingWindow
        self.scheduler = scheduler
        self.records = records
        self.handles = handles
        self.random = random
        now = start
    }

    /// A random due date offset: 1 s to 24 h, millisecond resolution.
    @inline(__always)
    private static func delay(_ random: inout SplitMix64) -> TimeInterval {
        1 + Double(random.below(86_400_000)) / 1000
    }

    /// One operation; returns the number of reloads popped (normally 1).
    @inline(never)
    public func step() -> Int {
        let index = Int(random.below(UInt64(handles.count)))
        scheduler.setPolicyDue(handles[index], now.addingTimeInterval(Self.delay(&random)), in: &records)
        var popped = 0
        if let deadline = scheduler.nextDeadline() {
            if deadline > now { now = deadline }
            for event in scheduler.popDue(now: now, in: &records) {
                guard case .reload(let batch) = event else { continue }
                for member in batch.members {
                    scheduler.completed(member.handle, policyDue: now.addingTimeInterval(Self.delay(&random)), in: &records)
                    popped += 1
                }
            }
        }
        operations += 1
        reloads += popped
        return popped
    }

    public func run(_ operations: Int) -> Int {
        var total = 0
        for _ in 0..<operations { total &+= step() }
        return total
    }
}

/// The reference: a swift-collections `Heap<UInt64>` of bare 64-bit deadlines (nanoseconds) at
/// the same size. One operation = insert a new random deadline (now + 1 s ... 24 h) + `popMin`.
public final class HeapReferenceWorkload: @unchecked Sendable {
    public let size: Int
    private var heap: Heap<UInt64>
    private var random: SplitMix64
    private var now: UInt64 = 1_767_571_200_000_000_000

    public init(size: Int = 1_000_000, seed: UInt64 = 0x5EED) {
        self.size = size
        random = SplitMix64(seed: seed)
        var deadlines: [UInt64] = []
        deadlines.reserveCapacity(size + 1)
        for _ in 0..<size { deadlines.append(now + 1_000_000_000 + random.below(86_400_000_000_000)) }
        heap = Heap(deadlines)
    }

    @inline(never)
    public func step() -> UInt64 {
        heap.insert(now + 1_000_000_000 + random.below(86_400_000_000_000))
        let earliest = heap.popMin()!
        if earliest > now { now = earliest }
        return earliest
    }

    public func run(_ operations: Int) -> UInt64 {
        var total: UInt64 = 0
        for _ in 0..<operations { total &+= step() }
        return total
    }
}

// MARK: Smart Stack rotation

/// `stacks` stacks of `perStack` instances, re-evaluated the way the daemon's `evaluateStack`
/// does, minus the store and the event hub: `StackRanking.rank` (relevance in force, relative
/// relevance over the 30-day window, donation affinity) + `StackRotation.evaluate` + the next
/// instant time alone can change the answer (every instance's `nextChange`, the affinity slot).
/// The inputs (histories, matched donations) are built once, as the daemon keeps them in memory.
///
/// Relevance histories, per instance at random:
/// - 40 % hourly: a sample every hour from 24 h before to 24 h after the start, score 0...100
///   (about 5 % zero: ineligible while in force), duration 1 h;
/// - 20 % sparse: a sample every 12 h over the 30-day window and the next day, score 1...10, duration 0;
/// - 15 % bursts: one sample a minute for an hour twice a day (yesterday, today and tomorrow),
///   rising scores like Emoji Rangers' health, duration 0;
/// - 25 % none.
/// Donations: 25 % of instances have 2 to 20 matched donations over the last 60 days, clustered
/// around a preferred hour of the day (± 1.5 h); the rest none.
///
/// `pass()` evaluates every stack at the current moment, then moves the moment 5 minutes on;
/// after a simulated day the stacks go back to their initial state.
public final class RotationWorkload: @unchecked Sendable {
    public let stackCount: Int
    public let perStack: Int
    private let inputs: [[RankingInput]]
    private let initialStates: [StackState]
    private var states: [StackState]
    private let settings = RotationSettings()
    private let affinity = DonationAffinity()
    private let calendar: Calendar
    private var moment = 0
    public private(set) var now: Date
    /// Decisions (rotations and held-back ones) and rotations so far.
    public private(set) var decisions = 0
    public private(set) var rotations = 0
    public let totalSamples: Int
    public let totalDonations: Int

    public init(stacks: Int = 10_000, perStack: Int = 10, seed: UInt64 = 0x57AC) {
        stackCount = stacks
        self.perStack = perStack
        let calendar = Calendar.current
        self.calendar = calendar
        now = coreEpoch
        var random = SplitMix64(seed: seed)
        var inputs: [[RankingInput]] = []
        var states: [StackState] = []
        var samples = 0
        var donationCount = 0
        inputs.reserveCapacity(stacks)
        for stack in 0..<stacks {
            var members: [RankingInput] = []
            for slot in 0..<perStack {
                let id = coreInstanceID(stack * perStack + slot)
                let history = RotationWorkload.history(&random)
                let donations = RotationWorkload.donations(&random, counter: &donationCount)
                samples += history.samples.count
                // Local times are read when donations are loaded, as the daemon does.
                members.append(RankingInput(
                    instance: id, history: history, matchedDonations: donations.map { LocalDonation($0, calendar: calendar) }))
            }
            inputs.append(members)
            states.append(StackState(name: "stack-\(stack)", instances: members.map(\.instance)))
        }
        self.inputs = inputs
        initialStates = states
        self.states = states
        totalSamples = samples
        totalDonations = donationCount
    }

    private static func history(_ random: inout SplitMix64) -> RelevanceHistory {
        let hour: TimeInterval = 3600
        let day: TimeInterval = 86400
        var samples: [RelevanceSample] = []
        let pick = random.below(100)
        switch pick {
        case 0..<40:
            for k in -24..<24 {
                let zero = random.below(20) == 0
                let score = zero ? 0 : Double(1 + random.below(100))
                samples.append(RelevanceSample(date: coreEpoch.addingTimeInterval(Double(k) * hour), score: score, duration: hour))
            }
        case 40..<60:
            var date = coreEpoch.addingTimeInterval(-30 * day)
            let end = coreEpoch.addingTimeInterval(day)
            while date < end {
                samples.append(RelevanceSample(date: date, score: Double(1 + random.below(10)), duration: 0))
                date.addTimeInterval(12 * hour)
            }
        case 60..<75:
            for dayOffset in -1...1 {
                for battle in [Double(random.below(12)), 12 + Double(random.below(12))] {
                    let start = coreEpoch.addingTimeInterval(Double(dayOffset) * day + battle * hour)
                    let health = Double(20 + random.below(40))
                    for minute in 0..<60 {
                        samples.append(RelevanceSample(
                            date: start.addingTimeInterval(Double(minute) * 60), score: min(100, health + Double(minute)),
                            duration: 0))
                    }
                }
            }
        default:
            break
        }
        return RelevanceHistory(samples: samples)
    }

    private static func donations(_ random: inout SplitMix64, counter: inout Int) -> [Donation] {
        guard random.below(4) == 0 else { return [] }
        let count = 2 + Int(random.below(19))
        let preferred = Double(random.below(24)) * 3600
        var donations: [Donation] = []
        for _ in 0..<count {
            let daysAgo = 1 + Double(random.below(60))
            let jitter = (random.unit() * 2 - 1) * 5400
            let date = coreEpoch.addingTimeInterval(-daysAgo * 86400 + preferred + jitter)
            counter += 1
            donations.append(Donation(
                intentType: "BenchTopic", parameters: ["topic": .integer(Int64(random.below(1000)))], date: date,
                id: "d\(counter)", group: nil))
        }
        return donations.sorted { $0.date < $1.date }
    }

    /// Re-evaluates one stack at the current moment; returns a value to keep the work alive.
    @inline(never)
    public func evaluate(stack index: Int) -> Int {
        let members = inputs[index]
        let candidates = StackRanking.rank(members, at: now, settings: settings, affinity: affinity, calendar: calendar)
        let (decision, recheck) = StackRotation.evaluate(&states[index], candidates: candidates, at: now, settings: settings)
        var times: [Date?] = [recheck]
        for input in members {
            times.append(input.history.nextChange(after: now))
            if !input.matchedDonations.isEmpty { times.append(affinity.nextChange(after: now)) }
        }
        let next = times.compactMap { $0 }.filter { $0 > now }.min()
        if let decision {
            decisions += 1
            if decision.to != nil { rotations += 1 }
        }
        return candidates.count &+ (next == nil ? 0 : 1)
    }

    /// Every stack once at the current moment, then the moment moves 5 minutes on.
    public func pass() -> Int {
        var total = 0
        for index in 0..<stackCount { total &+= evaluate(stack: index) }
        advance()
        return total
    }

    private func advance() {
        moment += 1
        if moment == 288 {
            moment = 0
            states = initialStates
        }
        now = coreEpoch.addingTimeInterval(Double(moment) * 300)
    }
}

// MARK: Timing for widgetd-scale core

public enum CoreTiming {
    /// Runs `body(batch)` until `duration` has passed or `maximum` operations have run.
    public static func warmUp(for duration: Duration = .seconds(1), batch: Int = 100, maximum: Int, _ body: (Int) -> Void) {
        let clock = ContinuousClock()
        let start = clock.now
        var done = 0
        while done < maximum, clock.now - start < duration {
            body(batch)
            done += batch
        }
    }

    /// Runs `body(n)` (n operations) in rounds and returns the best operations per second.
    /// n doubles until one round takes at least `minimumRound`; then `rounds` rounds are timed.
    public static func bestRate(
        rounds: Int = 5, minimumRound: Duration = .milliseconds(500), startingAt initial: Int = 1000,
        _ body: (Int) -> Void
    ) -> (perSecond: Double, operationsPerRound: Int, allRates: [Double]) {
        let clock = ContinuousClock()
        var count = max(1, initial)
        while true {
            let elapsed = clock.measure { body(count) }
            if elapsed >= minimumRound || count >= 1 << 30 { break }
            count *= 2
        }
        var rates: [Double] = []
        for _ in 0..<max(1, rounds) {
            let elapsed = clock.measure { body(count) }
            rates.append(Double(count) / elapsed.coreSeconds)
        }
        return (rates.max() ?? 0, count, rates)
    }
}

extension Duration {
    public var coreSeconds: Double {
        let (whole, attoseconds) = components
        return Double(whole) + Double(attoseconds) * 1e-18
    }
}
