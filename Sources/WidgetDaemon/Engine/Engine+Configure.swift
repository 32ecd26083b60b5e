import Foundation
import WidgetCore
import WidgetProtocol

/// Changes whose configuration is checked against the provider's options before they are
/// planned (asking a provider cannot wait inside a plan, which runs again if it must wait).
extension Engine {
    /// Places an instance. Its first load is exempt from the budget and due at once.
    func add(_ params: AddParams, _ call: Reply<AddResult>) async {
        let configuration: [String: JSONValue]
        let family: WidgetFamily
        do {
            let descriptor: WidgetDescriptor
            (descriptor, family) = try kindAndFamily(params.kind, params.family)
            let reserved = commits.reserved
            try checked { () throws(StateError) in
                try state.checkRoomForAdd(stack: params.stack, reserved: reserved)
                try state.checkConfigurationSize(params.configuration ?? [:])
            }
            configuration = try await validated(params.configuration ?? [:], for: descriptor, family: family)
        } catch {
            return call.fail(error)
        }
        change(call, { state, now throws(StateError) in
            let id = state.makeInstanceID()
            let plan = try state.planAdd(
                id: id, kind: params.kind, family: family, configuration: configuration, stack: params.stack, at: now,
                reserved: self.commits.reserved)
            return (plan, id)
        }, answer: { id in AddResult(id: id) })
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
        change(call, { state, now throws(StateError) in
            try state.planConfigure(params.id, configuration: configuration, at: now)
        }, answer: { () throws(RPCError) in
            guard let info = self.info(params.id) else { throw .unknownInstance(params.id) }
            return info
        })
    }
}
