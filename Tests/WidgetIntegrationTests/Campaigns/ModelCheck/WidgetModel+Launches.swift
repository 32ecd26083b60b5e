extension WidgetModel {
    /// Launches every provider with a reload due now. One launch per provider takes every
    /// instance of it wanted within the coalescing window that the budget lets run now; budgeted
    /// reloads are charged now. Each answer is the provider's timeline at `now`.
    mutating func launchDue() {
        let now = self.now
        let dueProviders = Set(instances.filter { ($0.pending?.due ?? .max) <= now }.compactMap(\.kind.providerKey))
        for key in dueProviders.sorted() {
            let members = instances.indices.filter { index in
                let instance = instances[index]
                guard instance.kind.providerKey == key, let pending = instance.pending else { return false }
                return pending.wanted <= now + ModelWidgets.coalescingWindow && instance.due(pending.reason, wanted: now) <= now
            }
            for index in members {
                let reason = instances[index].pending!.reason
                instances[index].request = nil
                instances[index].policyDue = nil
                if !reason.isExempt { instances[index].budgeted.append(now) }
                let answer = ModelWidgets.answer(instances[index].kind, instances[index].config, now: now)
                instances[index].install(answer, at: now, fromProvider: true)
            }
        }
    }

    /// The next instant after `now` at which anything may happen: a reload coming due, an
    /// entry, a score starting, lapsing or leaving the window, an affinity slot, or a dwell,
    /// hold or hourly cap ending.
    func nextInstant() -> Seconds? {
        var times = instances.compactMap { $0.pending?.due }.filter { $0 > now }
        for stack in stacks { times += changes(of: stack, at: now + 1) }
        return times.min()
    }
}
