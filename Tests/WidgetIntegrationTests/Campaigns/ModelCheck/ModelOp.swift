import Foundation

/// One operation of the model check: sent to the daemon, and applied to the model.
/// Instances are named `i1`, `i2`, ... in the order of their adds.
enum ModelOp: Sendable {
    case add(ModelKind, family: String, ModelConfig, stack: String?)
    case remove(String)
    case configure(String, topic: Int?, mode: Int?)
    case push(String, [ModelEntry], ModelPolicy)
    case reload([ModelKind], userInitiated: Bool)
    case reloadAll(userInitiated: Bool)
    case donate(ModelDonation)
    case deleteDonations(group: String)
    case stackCreate(String, smartRotate: Bool)
    case stackAdd(String, instance: String)
    case swipe(String, instance: String)
    case smartRotate(String, on: Bool)
    /// A host sets the `room` context value (nil removes it).
    case context(room: String?)
    case advance(Seconds)
    case setClock(Seconds)

    /// The JSON-RPC method and params; `id` turns an instance name into the daemon's id.
    func request(id: (String) -> String) -> (method: String, params: [String: Any]) {
        switch self {
        case .add(let kind, let family, let config, let stack):
            var params: [String: Any] = ["kind": kind.rawValue, "family": family, "configuration": config.json]
            if let stack { params["stack"] = stack }
            return ("add", params)
        case .remove(let name):
            return ("remove", ["id": id(name)])
        case .configure(let name, let topic, let mode):
            var values: [String: Any] = [:]
            if let topic { values["topic"] = topic }
            if let mode { values["mode"] = mode }
            return ("configure", ["id": id(name), "configuration": values])
        case .push(let name, let entries, let policy):
            return ("push", ["id": id(name), "timeline": ["entries": entries.map(\.json), "policy": policy.json]])
        case .reload(let kinds, let userInitiated):
            return ("reloadTimelines", ["kinds": kinds.map(\.rawValue), "userInitiated": userInitiated])
        case .reloadAll(let userInitiated):
            return ("reloadAllTimelines", ["userInitiated": userInitiated])
        case .donate(let donation):
            var parameters: [String: Any] = ["topic": donation.topic]
            if let mode = donation.mode { parameters["mode"] = mode }
            return ("donate", [
                "intentType": donation.intentType, "parameters": parameters, "date": ModelTime.iso(donation.date),
                "id": donation.id, "group": donation.group,
            ])
        case .deleteDonations(let group):
            return ("donations.delete", ["group": group])
        case .stackCreate(let name, let smartRotate):
            return ("stack.create", ["name": name, "smartRotate": smartRotate])
        case .stackAdd(let name, let instance):
            return ("stack.add", ["name": name, "instances": [id(instance)]])
        case .swipe(let name, let instance):
            return ("stack.swipe", ["name": name, "instance": id(instance)])
        case .smartRotate(let name, let on):
            return ("stack.smartRotate", ["name": name, "on": on])
        case .context(let room):
            return ("context.set", ["values": ["room": room.map { $0 as Any } ?? NSNull()]])
        case .advance(let seconds):
            return ("clock.advance", ["seconds": seconds])
        case .setClock(let date):
            return ("clock.set", ["date": ModelTime.iso(date)])
        }
    }

    /// Applies the operation to the model; `newID` is the id the daemon gave an add.
    func apply(to model: inout WidgetModel, newID: String?) {
        let ids = Dictionary(uniqueKeysWithValues: model.instances.map { ($0.name, $0.id) })
        let id = { (name: String) in ids[name] ?? name }
        switch self {
        case .add(let kind, let family, let config, let stack):
            model.add(id: newID ?? "?", kind: kind, family: family, config: config, stack: stack)
        case .remove(let name): model.remove(id(name))
        case .configure(let name, let topic, let mode): model.configure(id(name), topic: topic, mode: mode)
        case .push(let name, let entries, let policy): model.push(id(name), ModelTimeline(arriving: entries, policy: policy))
        case .reload(let kinds, let userInitiated): model.reload(Set(kinds), userInitiated: userInitiated)
        case .reloadAll(let userInitiated): model.reload(Set(ModelKind.allCases), userInitiated: userInitiated)
        case .donate(let donation): model.donate(donation)
        case .deleteDonations(let group): model.deleteDonations(group: group)
        case .stackCreate(let name, let smartRotate): model.createStack(name, smartRotate: smartRotate)
        case .stackAdd(let name, let instance): model.addToStack(name, id(instance))
        case .swipe(let name, let instance): model.swipe(name, to: id(instance))
        case .smartRotate(let name, let on): model.setSmartRotate(name, on)
        case .context(let room): model.setRoom(room)
        case .advance(let seconds): model.advance(to: model.now + seconds)
        case .setClock(let date): model.advance(to: date)
        }
    }
}

extension ModelOp: CustomStringConvertible {
    var description: String {
        switch self {
        case .add(let kind, let family, let config, let stack):
            "add \(kind.rawValue) \(family) \(config)" + (stack.map { " --stack \($0)" } ?? "")
        case .remove(let name): "remove \(name)"
        case .configure(let name, let topic, let mode):
            "configure \(name)" + (topic.map { " topic=\($0)" } ?? "") + (mode.map { " mode=\($0)" } ?? "")
        case .push(let name, let entries, let policy):
            "push \(name) \(policy) " + entries.map { entry in
                "\(ModelTime.iso(entry.date).dropFirst(11))"
                    + (entry.relevance.map { "(\($0.score),\($0.duration)" + ($0.room.map { ",room=\($0)" } ?? "") + ")" } ?? "")
            }.joined(separator: " ")
        case .reload(let kinds, let userInitiated):
            "reload \(kinds.map(\.rawValue).joined(separator: " "))" + (userInitiated ? " --user-initiated" : "")
        case .reloadAll(let userInitiated): "reload --all" + (userInitiated ? " --user-initiated" : "")
        case .donate(let donation):
            "donate \(donation.intentType) topic=\(donation.topic)" + (donation.mode.map { " mode=\($0)" } ?? "")
                + " --at \(ModelTime.iso(donation.date)) --id \(donation.id) --group \(donation.group)"
        case .deleteDonations(let group): "donations delete --group \(group)"
        case .stackCreate(let name, let smartRotate): "stack create \(name)" + (smartRotate ? "" : " --no-smart-rotate")
        case .stackAdd(let name, let instance): "stack add \(name) \(instance)"
        case .swipe(let name, let instance): "stack swipe \(name) \(instance)"
        case .smartRotate(let name, let on): "stack smart-rotate \(name) \(on ? "on" : "off")"
        case .context(let room): room.map { "context set room=\($0)" } ?? "context set --unset room"
        case .advance(let seconds): "clock advance \(seconds)s"
        case .setClock(let date): "clock set \(ModelTime.iso(date))"
        }
    }
}
