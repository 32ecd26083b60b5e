import Foundation
import WidgetCore
import WidgetProtocol

extension Engine {
    /// Places an instance. Its first load is exempt from the budget and due at once.
    func add(_ params: AddParams, _ call: Reply<AddResult>) async {
        let configuration: [String: JSONValue]
        let family: WidgetFamily
        do {
            let descriptor: WidgetDescriptor
            (descriptor, family) = try kindAndFamily(params.kind, params.family)
            let reserved = commits.flight.ledger.reserved
            try checked { () throws(StateError) in
                try state.checkRoomForAdd(stack: params.stack, reserved: reserved)
                try state.checkConfigurationSize(params.configuration ?? [:])
            }
            configuration = try await validated(params.configuration ?? [:], for: descriptor, family: family)
        } catch {
            return call.fail(error)
        }
        change(call, { () throws(RPCError) in
            let id = self.state.makeInstanceID()
            let reserved = self.commits.flight.ledger.reserved
            let plan = try self.checked { () throws(StateError) in
                try self.state.planAdd(
                    id: id, kind: params.kind, family: family, configuration: configuration, stack: params.stack,
                    at: self.now, reserved: reserved)
            }
            return (plan, id)
        }, answer: { id in AddResult(id: id) })
    }

    func remove(_ params: InstanceParams, _ call: Reply<RemoveResult>) {
        change(call, { () throws(RPCError) in
            try self.checked { () throws(StateError) in try self.state.planRemove(params.id, at: self.now) }
        }, answer: { RemoveResult(removed: params.id) })
    }

    /// Changes an instance's configuration; the reload that follows is exempt from the budget.
    func configure(_ params: ConfigureParams, _ call: Reply<InstanceInfo>) async {
        let configuration: [String: JSONValue]
        do {
            let (record, merged) = try checked { () throws(StateError) in
                try state.configurationToValidate(params.id, given: params.configuration, replace: params.replace == true)
            }
            if let descriptor = state.descriptors[record.kind] {
                configuration = try await validated(merged, for: descriptor, family: record.instance.family)
            } else {
                configuration = merged
            }
        } catch {
            return call.fail(error)
        }
        change(call, { () throws(RPCError) in
            try self.checked { () throws(StateError) in try self.state.planConfigure(params.id, configuration: configuration, at: self.now) }
        }, answer: { () throws(RPCError) in
            guard let info = self.info(params.id) else { throw .unknownInstance(params.id) }
            return info
        })
    }

    /// A host reports what it shows now (replacing its previous report).
    func visible(_ params: VisibleParams, _ call: Reply<VisibleResult>) {
        change(call, { () throws(RPCError) in
            try self.checked { () throws(StateError) in try self.state.planVisible(params.instances, at: self.now) }
        }, answer: { VisibleResult(visible: self.state.instances.visible.sorted()) })
    }

    func list(_ call: Reply<[InstanceInfo]>) {
        call.succeed(state.instances.inPlacementOrder.map { info($0) } + failedInfos())
    }

    /// Instances whose stored row does not decode, after the others, oldest first: shown so
    /// that they are not lost silently, with why.
    func failedInfos() -> [InstanceInfo] {
        guard !state.failedInstances.isEmpty else { return [] }
        return state.failedInstances.values.sorted { ($0.created, $0.id) < ($1.created, $1.id) }.map { failed in
            var info = InstanceInfo(
                id: failed.id, kind: failed.kind, family: failed.family ?? .systemSmall, configuration: [:],
                currentEntry: nil, hasTimeline: false, nextReload: nil)
            info.failure = failed.reason
            return info
        }
    }

    /// WidgetKit's `WidgetInfo`, plus what the daemon knows about the instance now.
    func info(_ id: InstanceID) -> InstanceInfo? {
        state.instances[id].map { info($0) }
    }

    func info(_ record: InstanceRecord) -> InstanceInfo {
        let instance = record.instance
        var info = InstanceInfo(
            id: instance.id, kind: instance.kind, family: instance.family, configuration: instance.configuration,
            currentEntry: record.timeline?.timeline.currentEntry(at: now), hasTimeline: record.timeline != nil,
            nextReload: state.scheduler.pendingReload(for: instance.id)?.due)
        info.visible = record.visible
        info.lastVisible = record.lastVisible
        info.invalidated = record.invalidation != nil ? true : nil
        return info
    }
}
