import Foundation

/// What marks an instance invalidated: the action performed, and the stored reload request
/// whose launch ends it (nil while the provider's `perform` runs, before the reload is asked).
public struct Invalidation: Sendable, Hashable {
    public var action: String
    var request: Int64?
}

/// Actions (docs/widgets.md, "Actions"): a host performs an action of the entry an instance
/// shows; the provider runs its intent, and the instance is reloaded at once, shown as
/// invalidated until that reload ends.
extension DaemonState {
    /// An action to perform, checked: the instance, its provider's request fields, and the
    /// intent with the type's defaults filled in.
    public struct PerformAsk: Sendable, Hashable {
        public var instance: InstanceID
        public var kind: String
        public var family: WidgetFamily
        public var configuration: [String: JSONValue]
        public var action: String
        public var intent: ActionIntent
    }

    /// Checks that `action` is offered by the entry `id` shows at `now` and that its kind can
    /// run it. Changes nothing.
    public func performAsk(instance id: InstanceID, action: String, at now: Date) throws(StateError) -> PerformAsk {
        guard let record = instances[id] else { throw .unknownInstance(id) }
        guard let descriptor = descriptors[record.kind] else { throw .unknownKind(record.kind) }
        if let problem = descriptor.problem { throw .unusableKind(record.kind, problem: problem) }
        guard hasProvider(record.kind) else {
            throw .invalidParams("params.instance: \(id) is of kind \(record.kind), which has no provider to perform actions")
        }
        guard let entry = record.timeline?.timeline.currentEntry(at: now) else {
            throw .invalidParams("params.instance: \(id) shows no entry, so it has no actions")
        }
        guard let found = entry.action(action) else {
            let offered = entry.actions.map(\.id).joined(separator: ", ")
            throw .invalidParams(
                "params.action: \(id) has no action '\(action)' in the entry shown now (actions: \(offered.isEmpty ? "none" : offered))")
        }
        guard let type = descriptor.actionType(found.intent.type) else {
            throw .invalidParams("params.action: the intent type '\(found.intent.type)' is no longer declared by kind \(record.kind)")
        }
        let parameters: [String: JSONValue]
        do {
            parameters = try type.effectiveConfiguration(found.intent.parameters, family: record.instance.family)
        } catch {
            throw .invalidParams("params.action: intent.parameters.\(error.parameter): \(error.reason)")
        }
        return PerformAsk(
            instance: id, kind: record.kind, family: record.instance.family, configuration: record.instance.configuration,
            action: action, intent: ActionIntent(type: found.intent.type, parameters: parameters))
    }

    /// Marks the instance invalidated while its provider performs the action. Kept in memory
    /// only: until the reload is asked nothing is acknowledged, and a restart reloads anyway.
    public func planInvalidate(_ ask: PerformAsk, at now: Date) -> Plan {
        var plan = Plan()
        guard instances.contains(ask.instance) else { return plan }
        let mark = Invalidation(action: ask.action, request: nil)
        plan.effect { state in state.instances.update(ask.instance) { $0.invalidation = mark } }
        plan.events.append(.invalidated(ask.instance, action: ask.action, date: now))
        plan.note(.info, "action performed", ["instance": ask.instance, "action": ask.action, "intent": ask.intent.type])
        return plan
    }

    /// Whether the reload after an action of `id` performed at `now` is exempt from the
    /// budget: up to `action-reloads-per-minute` in any minute. Counts it when it is.
    public mutating func takeExemptActionReload(_ id: InstanceID, at now: Date) -> Bool {
        let minuteAgo = now.addingTimeInterval(-60)
        // An instance removed while its provider performed is reloaded by no one: nothing to count.
        guard var dates = instances.read(id, { $0.pointee.actionReloads }) else { return settings.actionReloadsPerMinute > 0 }
        dates = dates.filter { $0 > minuteAgo && $0 <= now }
        let exempt = dates.count < settings.actionReloadsPerMinute
        if exempt { dates.append(now) }
        instances.update(id) { $0.actionReloads = dates }
        return exempt
    }

    /// The provider performed the action: the instance is reloaded at once, exempt from the
    /// budget or budgeted (`takeExemptActionReload`); never dropped. The invalidation then
    /// lasts until that reload ends.
    public mutating func planActionReload(_ ask: PerformAsk, exempt: Bool, at now: Date) -> Plan {
        let id = ask.instance
        guard instances.contains(id) else { return Plan() }
        var plan = planReload([id], reason: exempt ? .action : .requested, at: now)
        let action = ask.action
        plan.effect { state in
            state.instances.update(id) { record in
                // The reload just asked, or the waiting one it merged into, ends it.
                record.invalidation = Invalidation(action: action, request: record.request?.sequence ?? 0)
            }
        }
        return plan
    }

    /// The provider could not perform the action: nothing changed, so nothing is out of date.
    /// Subscribers told of the invalidation are told the shown entry again (an `entryChange`),
    /// as a reload's end would have told them, so no host keeps it dimmed.
    public func planPerformFailed(_ ask: PerformAsk, error: String, at now: Date) -> Plan {
        var plan = Plan()
        plan.note(.warning, "action failed", ["instance": ask.instance, "action": ask.action, "error": error])
        // Only the mark of a perform still running: a later perform's reload, or a push, owns any other.
        guard let record = instances[ask.instance], let mark = record.invalidation, mark.request == nil else { return plan }
        plan.effect { state in state.instances.update(ask.instance) { $0.invalidation = nil } }
        plan.events.append(.entryChange(ask.instance, date: now, entry: record.timeline?.timeline.currentEntry(at: now)))
        return plan
    }

    /// Why `timeline` cannot be installed for an instance of `kind` shown as `family`: an
    /// action whose intent the kind does not declare, or whose parameters break its rules.
    func actionProblem(_ timeline: WidgetTimeline, kind: String, family: WidgetFamily) -> String? {
        let entries = timeline.entries
        guard entries.haveActions else { return nil }
        let descriptor = descriptors[kind]
        for index in entries.indices {
            for action in entries.actions(at: index) {
                guard let descriptor else { return "entries[\(index)].actions: kind \(kind) has no descriptor" }
                if let problem = descriptor.problem(with: action, family: family) {
                    return "entries[\(index)].actions['\(action.id)'].\(problem)"
                }
            }
        }
        return nil
    }
}

extension InstanceRecord {
    /// Ends the invalidation when the launch that consumed request `consumed` carried out the
    /// reload asked after the action (or a later one).
    mutating func endInvalidation(consumed: Int64?) {
        guard let request = invalidation?.request, let consumed, consumed >= request else { return }
        invalidation = nil
    }
}
