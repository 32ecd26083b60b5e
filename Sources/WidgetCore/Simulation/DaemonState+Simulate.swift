import Foundation

extension DaemonState {
    /// A dry run from `start` to `end` on a copy of this state (see `SimulationRun`, which it
    /// steps). No provider runs: a reload answers with the timeline held now (`heldOutcome`).
    /// Nothing is stored, and `self` is unchanged.
    public func simulate(from start: Date, to end: Date, limit: Int = 100_000, maxSteps: Int = 1_000_000) -> SimulationReport {
        var run = SimulationRun(self, from: start, to: end, limit: limit, maxSteps: maxSteps)
        while let launches = run.next() {
            run.answer(launches.map(run.heldOutcomes))
        }
        return run.report
    }

    /// What a reload answers in the simulation: the timeline held now. An instance with none
    /// yet gets an empty timeline that never reloads, since nothing is known of what its
    /// provider would say.
    func heldOutcome(_ id: InstanceID) -> MemberOutcome {
        .timeline(instances[id]?.timeline?.timeline ?? WidgetTimeline(entries: [], policy: .never))
    }
}

/// Collects what a simulation step produced into the report, each list up to the limit.
struct SimulationRecorder {
    var report: SimulationReport
    let limit: Int

    /// `reloads`: where the reloads of the launch whose plan produced `events` start in the
    /// report's list, so a failure marks them.
    mutating func record(_ events: [StateEvent], reloads: Int? = nil) {
        for event in events {
            switch event {
            case .entryChange(let id, let date, _):
                report.counts.entryChanges += 1
                append(SimulatedEntryChange(date: date, instance: id), to: \.entryChanges)
            case .rotation(let decision, _):
                if decision.to == nil { report.counts.heldBack += 1 } else { report.counts.rotations += 1 }
                append(SimulatedRotation(decision), to: \.rotations)
            case .reloadFailed(_, let ids, let error, _):
                report.counts.failed += ids.count
                guard let reloads else { continue }
                for index in reloads..<report.reloads.endIndex where ids.contains(report.reloads[index].instance) {
                    report.reloads[index].error = error
                }
            case .reload, .stack, .stackRemoved, .invalidated:
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
