import Foundation

/// A dry run stepped from outside: `next()` hands out the provider launches due at the next
/// wake-up of the virtual clock, `answer(_:)` applies what they produced, and so on until
/// `next()` answers nil; `report` then holds the run. The core does no I/O: whoever steps the
/// run decides what a launch answers, the timeline held now (`DaemonState.simulate`) or the
/// real provider asked with the launch's virtual date as its `now` (the daemon's
/// `simulate` with `runProviders`).
///
/// It steps a copy of the state exactly as the daemon's virtual clock steps the real one
/// (`takeDue`, each launch's result with `planLaunchResult`, then the stacks marked on the way
/// with `planEvaluation`), so the simulation cannot drift from what the daemon does.
public struct SimulationRun: Sendable {
    /// The copy being stepped.
    public private(set) var state: DaemonState
    public let end: Date
    /// The virtual instant of the wake-up in progress.
    public private(set) var now: Date
    private var recorder: SimulationRecorder
    private let limit: Int
    private let maxSteps: Int
    private var steps = 0
    /// A wake-up at `now` is in progress: what is due at `now` is taken until nothing is.
    private var waking = false
    /// Handed out by `next()`, waiting for `answer(_:)`.
    private var pending: [Launch] = []
    /// Where each pending launch's reloads start in the report's list.
    private var reloadsFrom: [Int] = []
    private var finished = false

    /// A run of `state` from `start` to `end`. `limit` caps each list in the report (counts
    /// stay whole); `maxSteps` the wake-ups stepped, so a schedule that never stops (a reload
    /// due again at once with the budget off) ends the run, marked truncated.
    public init(_ state: DaemonState, from start: Date, to end: Date, limit: Int = 100_000, maxSteps: Int = 1_000_000) {
        self.state = state
        self.end = end
        now = start
        self.limit = limit
        self.maxSteps = maxSteps
        recorder = SimulationRecorder(report: SimulationReport(start: start, end: end), limit: limit)
        recorder.report.stacks = state.stacks.names.compactMap { name in
            state.stacks[name].map { stack in
                SimulatedStack(
                    name: name, smartRotate: stack.smartRotate, top: stack.top,
                    instances: stack.instances.map { SimulatedInstance(id: $0, kind: state.instances[$0]?.kind ?? "") })
            }
        }
    }

    /// What the run found; whole once `next()` has answered nil.
    public var report: SimulationReport { recorder.report }

    /// The launches due at the next wake-up, to be answered with `answer(_:)` before the next
    /// call; nil when the run is over. What is overdue at the start is carried out at the start,
    /// as the daemon's first step.
    public mutating func next() -> [Launch]? {
        precondition(pending.isEmpty, "answer the launches handed out before asking for more")
        while !finished {
            if waking {
                // The report lists when entries change, not what they show.
                let work = state.takeDue(at: now, entries: false)
                recorder.record(work.events)
                if !work.launches.isEmpty {
                    reloadsFrom = []
                    for launch in work.launches {
                        reloadsFrom.append(recorder.report.reloads.count)
                        recorder.record(launch, budget: state.scheduler.budget)
                    }
                    pending = work.launches
                    return pending
                }
                // Every launch of the instant is in: the stacks marked on the way are evaluated together.
                waking = false
                let names = state.takeDirtyStacks()
                if !names.isEmpty {
                    let plan = state.planEvaluation(names, at: now)
                    state.apply(plan)
                    recorder.record(plan.events)
                }
                continue
            }
            guard let next = state.nextWake, next <= end else {
                finish()
                break
            }
            steps += 1
            guard steps <= maxSteps else {
                recorder.report.truncated = true
                finish()
                break
            }
            now = max(now, next)
            waking = true
        }
        return nil
    }

    /// What the launches `next()` handed out produced, one list of member outcomes per launch,
    /// in order; applied at `now` as the daemon applies a launch's result.
    public mutating func answer(_ outcomes: [[MemberOutcome]]) {
        precondition(outcomes.count == pending.count, "one answer per launch handed out")
        for (index, launch) in pending.enumerated() {
            let plan = state.planLaunchResult(launch, outcomes: outcomes[index], at: now, logFailures: false, evaluate: false)
            state.apply(plan)
            recorder.record(plan.events, reloads: reloadsFrom[index])
        }
        pending = []
    }

    /// What a launch answers when no provider is asked: each member's timeline held now.
    public func heldOutcomes(_ launch: Launch) -> [MemberOutcome] {
        launch.members.map { state.heldOutcome($0.id) }
    }

    /// Counts a launch answered by its provider, not by the timeline held now.
    public mutating func countProviderLaunch() {
        recorder.report.counts.providerLaunches += 1
    }

    /// Marks the report truncated: the stepper stopped doing what was asked (a cap on provider
    /// launches reached), so what follows is not what the daemon would do.
    public mutating func markTruncated() {
        recorder.report.truncated = true
    }

    private mutating func finish() {
        finished = true
        recorder.report.relevance = state.relevanceCurves(from: recorder.report.start, to: end)
        recorder.report.donations = state.donationTicks(from: recorder.report.start, to: end, limit: limit)
        if recorder.report.donations.count >= limit { recorder.report.truncated = true }
    }
}
