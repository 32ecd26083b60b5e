extension WidgetModel {
    /// Launches every provider with a reload due now. One launch per provider takes every
    /// instance of it wanted within the coalescing window that the budget lets run now; budgeted
    /// reloads are charged now. Each answer is the provider's timeline at `now`.
    mutating func launchDue() {
        let now = self.now
        let dueProviders = Set(instances.filter { ($0.pending?.due ?? .max) <= now }.compactMap(\.kind.providerKey))
        noteRacyStacks(launching: dueProviders)
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

    /// The daemon launches one provider process per kind, family and configuration, and
    /// applies each answer as it lands. A stack is evaluated as soon as it has a reason to be,
    /// so one whose members are launched now may be evaluated before all of them have landed:
    /// when they are in different launches, or when something else changed the stack now.
    private mutating func noteRacyStacks(launching providers: Set<String>) {
        guard !providers.isEmpty else { return }
        let launched = instances.filter { instance in
            guard let key = instance.kind.providerKey, providers.contains(key), let pending = instance.pending else { return false }
            return pending.wanted <= now + ModelWidgets.coalescingWindow && instance.due(pending.reason, wanted: now) <= now
        }
        for stack in stacks {
            let members = launched.filter { stack.instances.contains($0.id) }
            guard !members.isEmpty else { continue }
            let launches = Set(members.map { "\($0.kind.rawValue) \($0.family) \($0.config)" })
            if launches.count > 1 || changes(of: stack, at: now).contains(now) { notes.racyStacks.insert(stack.name) }
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
