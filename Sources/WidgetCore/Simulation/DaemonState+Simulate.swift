import Foundation

extension DaemonState {
    /// A dry run from `start` to `end` on a copy of this state: it steps the copy exactly as
    /// the daemon's virtual clock steps the real state (`takeDue`, each launch's result with
    /// `planLaunchResult`, then the stacks marked with `planEvaluation`), so the simulation
    /// cannot drift from what the daemon does. No provider runs: a reload answers with the
    /// timeline held now (see `heldOutcome`). Nothing is stored, and `self` is unchanged.
    ///
    /// `limit` caps each list in the report (counts stay whole); `maxSteps` the wake-ups
    /// stepped, so a schedule that never stops (a reload due again at once with the budget
    /// off) ends the run, marked truncated.
    public func simulate(from start: Date, to end: Date, limit: Int = 100_000, maxSteps: Int = 1_000_000) -> SimulationReport {
        var copy = self
        var recorder = SimulationRecorder(report: SimulationReport(start: start, end: end), limit: limit)
        recorder.report.stacks = stacks.names.compactMap { name in
            stacks[name].map { stack in
                SimulatedStack(
                    name: name, smartRotate: stack.smartRotate, top: stack.top,
                    instances: stack.instances.map { SimulatedInstance(id: $0, kind: instances[$0]?.kind ?? "") })
            }
        }
        var now = start
        var steps = 0
        // What is overdue at the start is carried out at the start, as the daemon's first step.
        while let next = copy.nextWake, next <= end {
            steps += 1
            guard steps <= maxSteps else {
                recorder.report.truncated = true
                break
            }
            now = max(now, next)
            copy.settleSimulated(at: now, into: &recorder)
        }
        recorder.report.relevance = copy.relevanceCurves(from: start, to: end)
        recorder.report.donations = copy.donationTicks(from: start, to: end, limit: limit)
        if recorder.report.donations.count >= limit { recorder.report.truncated = true }
        return recorder.report
    }

    /// One wake-up of the virtual clock at `now` (the daemon's `settle`): everything due is
    /// taken, launches answered and applied, again until nothing more is due at `now`; then
    /// the stacks marked on the way are evaluated together, once every launch is in.
    mutating func settleSimulated(at now: Date, into recorder: inout SimulationRecorder) {
        while true {
            let work = takeDue(at: now)
            recorder.record(work.events)
            guard !work.launches.isEmpty else { break }
            for launch in work.launches {
                recorder.record(launch, budget: scheduler.budget)
                let outcomes = launch.members.map { heldOutcome($0.id) }
                let plan = planLaunchResult(launch, outcomes: outcomes, at: now, logFailures: false, evaluate: false)
                apply(plan)
                recorder.record(plan.events)
            }
        }
        let names = takeDirtyStacks()
        guard !names.isEmpty else { return }
        let plan = planEvaluation(names, at: now)
        apply(plan)
        recorder.record(plan.events)
    }

    /// What a reload answers in the simulation: the timeline held now. An instance with none
    /// yet gets an empty timeline that never reloads, since nothing is known of what its
    /// provider would say.
    func heldOutcome(_ id: InstanceID) -> MemberOutcome {
        .timeline(instances[id]?.timeline?.timeline ?? Timeline(entries: [], policy: .never))
    }
}

/// Collects what a simulation step produced into the report, each list up to the limit.
struct SimulationRecorder {
    var report: SimulationReport
    let limit: Int

    mutating func record(_ events: [StateEvent]) {
        for event in events {
            switch event {
            case .entryChange(let id, let date, _):
                report.counts.entryChanges += 1
                append(SimulatedEntryChange(date: date, instance: id), to: \.entryChanges)
            case .rotation(let decision, _):
                if decision.to == nil { report.counts.heldBack += 1 } else { report.counts.rotations += 1 }
                append(SimulatedRotation(decision), to: \.rotations)
            case .reload, .reloadFailed, .stack, .stackRemoved, .invalidated:
                // Reloads are recorded from their launches, which know the reason and the budget.
                continue
            }
        }
    }

    mutating func record(_ launch: Launch, budget: ReloadBudget) {
        for (index, member) in launch.members.enumerated() {
            let reason = launch.reasons[index]
            let wanted = index < launch.wanted.count ? launch.wanted[index] : launch.date
            let budgetClass: BudgetClass =
                !budget.applies(to: reason) ? .exempt : launch.date > wanted ? .deferred : .budgeted
            switch budgetClass {
            case .budgeted: report.counts.budgeted += 1
            case .exempt: report.counts.exempt += 1
            case .deferred: report.counts.deferred += 1
            }
            append(
                SimulatedReload(
                    date: launch.date, instance: member.id, kind: member.kind, reason: reason, wanted: wanted, budget: budgetClass),
                to: \.reloads)
        }
    }

    private mutating func append<T>(_ item: T, to list: WritableKeyPath<SimulationReport, [T]>) {
        guard report[keyPath: list].count < limit else {
            report.truncated = true
            return
        }
        report[keyPath: list].append(item)
    }
}
