import Foundation

extension WidgetModel {
    /// Every stack decides its top now. Deciding where nothing changed decides nothing, so
    /// the model may evaluate more often than the daemon without disagreeing with it.
    mutating func evaluateStacks() {
        for index in stacks.indices {
            let candidates = candidates(of: stacks[index])
            let top = stacks[index].top
            if stacks[index].evaluate(candidates, at: now) {
                notes.rotations.append((now, stacks[index].name, stacks[index].top ?? "-"))
            }
            notes.evaluations.append(.init(
                date: now, stack: stacks[index].name, ranks: Dictionary(uniqueKeysWithValues: candidates.map { ($0.id, $0.eligible ? $0.rank : -1) })))
            if notes.tracing {
                let names = Dictionary(uniqueKeysWithValues: instances.map { ($0.id, $0.name) })
                let name = { (id: String?) in id.flatMap { names[$0] } ?? "-" }
                let ranks = candidates.map { "\(name($0.id))=\($0.eligible ? String(format: "%.3f", $0.rank) : "x")" }
                notes.trace.append("\(ModelTime.iso(now)) \(stacks[index].name) \(name(top)) -> \(name(stacks[index].top)) \(ranks.joined(separator: " "))")
            }
        }
    }

    /// The stack's instances ranked now, in stack order: rank = relevance weight × relative
    /// relevance + affinity weight × donation affinity; a score <= 0 in force is ineligible. A
    /// score whose clue names another room than the host set counts as relative relevance 0.
    func candidates(of stack: ModelStack) -> [ModelStack.Candidate] {
        stack.instances.compactMap { id -> ModelStack.Candidate? in
            guard let instance = instance(id: id) else { return nil }
            let inForce = instance.relevance.inForce(at: now)
            let eligible = (inForce?.score ?? 1) > 0
            var relative = instance.relevance.relative(at: now, window: ModelWidgets.relevanceWindow)
            if let clue = inForce?.room, clue != room { relative = 0 }
            let donations = matched[id] ?? []
            let affinity = donations.isEmpty ? 0 : ModelAffinity.value(donations, at: now)
            let rank = eligible ? ModelWidgets.relevanceWeight * relative + ModelWidgets.affinityWeight * affinity : 0
            return ModelStack.Candidate(id: id, eligible: eligible, rank: rank)
        }
    }

    /// When the stack's decision may change by itself, at or after `start`: an entry of a
    /// member, a score starting, lapsing or leaving the window, an affinity slot of a member
    /// with matching donations, or a dwell, hold or hourly cap ending.
    func changes(of stack: ModelStack, at start: Seconds) -> [Seconds] {
        var times = stack.gates(after: start - 1)
        for id in stack.instances {
            guard let instance = instance(id: id) else { continue }
            times += (instance.timeline?.entries ?? []).map(\.date)
            times += instance.relevance.changes(after: start - 1, window: ModelWidgets.relevanceWindow)
            if !(matched[id] ?? []).isEmpty {
                times.append(ModelTime.slotStart(start - 1) + 900)
            }
        }
        return times.filter { $0 >= start }
    }
}
