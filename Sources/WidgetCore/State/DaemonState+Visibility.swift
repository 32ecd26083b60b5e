import Foundation

extension DaemonState {
    /// A host reports what it shows now, replacing its previous report. When each instance was
    /// last shown is stored: now for those shown, and for those no longer shown (shown until
    /// now). The scheduler learns it too: reloads follow what is seen (docs/overview.md).
    public func planVisible(_ ids: [InstanceID], at now: Date) throws(StateError) -> Plan {
        for id in ids { _ = try record(id) }
        var plan = Plan()
        let shown = Set(ids)
        let hidden = instances.visible.subtracting(shown).sorted()
        for id in ids + hidden {
            plan.store.append(.putVisibility(id, lastVisible: now))
            plan.keys.share(.instance(id))
        }
        plan.effect { state in
            for id in hidden {
                state.updateShown(id) { record in
                    record.visible = false
                    record.lastVisible = now
                }
            }
            for id in shown {
                state.updateShown(id) { record in
                    record.visible = true
                    record.lastVisible = now
                }
            }
        }
        return plan
    }

    /// `stack show` by a host implies it shows the stack's top. A host may poll `stack show`,
    /// so the date goes to the store at most once a minute per instance: the change to store
    /// in the background (derived and advisory, a lost write only ages the date), if any.
    public mutating func noteShown(_ id: InstanceID?, at now: Date) -> StoreChange? {
        guard let id, let record = instances[id] else { return nil }
        let previous = record.lastVisible
        updateShown(id) { $0.lastVisible = now }
        if let previous, abs(now.timeIntervalSince(previous)) < 60 { return nil }
        return .putVisibility(id, lastVisible: now)
    }

    /// Changes what the record says of hosts showing the instance (`visible`, `lastVisible`),
    /// and moves its reload when what the schedule orders by changed (its `hiddenSince`, or,
    /// while the session is locked, whether a host shows it): the one way those fields change,
    /// so its slot is always where its record and the budget put it.
    mutating func updateShown(_ id: InstanceID, _ change: (inout InstanceRecord) -> Void) {
        guard let before: Date? = instances.read(id, { $0.pointee.hiddenSince }) else { return }
        instances.update(id, change)
        let after: Date?? = instances.read(id) { $0.pointee.hiddenSince }
        // While the session is locked, an instance a host shows is not held (docs/clues.md):
        // the budget's set follows, which moves the reload by its new `hiddenSince` too.
        if scheduler.budget.session.locked, scheduler.budget.session.shownWhileLocked.contains(id) != instances.visible.contains(id) {
            var budget = scheduler.budget
            budget.session.shownWhileLocked = instances.visible
            scheduler.updateBudget(budget, onlyIDs: [id], in: instances)
            return
        }
        guard after != before else { return }
        scheduler.reschedule(id, in: instances)
    }
}
