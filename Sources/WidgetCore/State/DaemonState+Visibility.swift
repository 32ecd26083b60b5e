import Foundation

extension DaemonState {
    /// A host reports what it shows now, replacing its previous report. When each instance was
    /// last shown is stored.
    public func planVisible(_ ids: [InstanceID], at now: Date) throws(StateError) -> Plan {
        for id in ids { _ = try record(id) }
        var plan = Plan()
        for id in ids {
            plan.store.append(.putVisibility(id, lastVisible: now))
            plan.keys.share(.instance(id))
        }
        let shown = Set(ids)
        plan.effect { state in
            for id in state.instances.visible where !shown.contains(id) {
                state.instances.update(id) { $0.visible = false }
            }
            for id in shown {
                state.instances.update(id) { record in
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
        guard let id, let previous = instances[id].map(\.lastVisible) else { return nil }
        instances.update(id) { $0.lastVisible = now }
        if let previous, abs(now.timeIntervalSince(previous)) < 60 { return nil }
        return .putVisibility(id, lastVisible: now)
    }
}
