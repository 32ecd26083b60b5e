import CSystemd
import WidgetCore
import WidgetProtocol

/// The object's calls, on the bus thread: introspection and properties answered here, the
/// interface's methods handed to the engine; replies and signals written.
extension DBusEndpoint {
    /// A message for the object: true when handled (sd-bus answers the rest, e.g. with
    /// UnknownMethod).
    func handle(_ message: OpaquePointer) -> Bool {
        guard sd_bus_message_is_method_call(message, nil, nil) > 0, let memberName = sd_bus_message_get_member(message) else {
            return false
        }
        let interface = sd_bus_message_get_interface(message).map { String(cString: $0) }
        let member = String(cString: memberName)
        switch (interface, member) {
        case ("org.freedesktop.DBus.Introspectable", "Introspect"):
            reply(.values([.string(DBusIntrospection.xml)]), to: message)
        case ("org.freedesktop.DBus.Properties", _):
            properties(member, message)
        case (DBusNames.interface, _), (nil, _):
            guard let method = DBusMethodTable.byName[member] else { return false }
            call(method, message)
        default:
            return false
        }
        return true
    }

    private func call(_ method: DBusMethod, _ message: OpaquePointer) {
        guard sd_bus_message_has_signature(message, method.inSignature) > 0 else {
            return reply(invalidArgs("\(method.name) takes (\(method.inSignature))"), to: message)
        }
        let args: [JSONValue]
        do {
            args = try DBusMessageCoding.readAll(message)
        } catch {
            return reply(invalidArgs("\(method.name): the arguments cannot be read"), to: message)
        }
        let call = DBusCall(method, args: args)
        let token = nextToken
        let line = call.requestLine(id: token)
        // The socket's bound on one request holds here too: the bus allows far larger messages.
        guard line.count <= ControlServer.maxLineBytes else {
            let name = DBusErrorName.name(for: RPCError.Code.messageTooLarge)
            return reply(.error(name: name, message: "message longer than \(ControlServer.maxLineBytes) bytes"), to: message)
        }
        let caller = DBusCaller.credentials(of: message)
        let waiting = pendingByUID[caller.uid, default: 0]
        guard waiting < maxCallsPerUID else {
            let refused = RPCError.limitExceeded(.dbusCallsPerUID(max: maxCallsPerUID, uid: caller.uid))
            return reply(.error(name: DBusErrorName.name(for: refused.code), message: refused.message), to: message)
        }
        pendingByUID[caller.uid] = waiting + 1
        nextToken += 1
        sd_bus_message_ref(message)
        pending[token] = (message, call, caller.uid)
        let endpoint = self
        serve(line, caller) { answer in
            endpoint.post(.answer(token: token, line: answer))
        }
    }

    /// One of `uid`'s calls is answered.
    func answered(_ uid: uid_t) {
        let left = pendingByUID[uid, default: 1] - 1
        pendingByUID[uid] = left > 0 ? left : nil
    }

    private func properties(_ member: String, _ message: OpaquePointer) {
        let args = (try? DBusMessageCoding.readAll(message)) ?? []
        let interface = args.first?.stringValue ?? ""
        switch member {
        case "Get":
            guard interface == DBusNames.interface, let name = args.dropFirst().first?.stringValue,
                let property = DBusIntrospection.properties.first(where: { $0.name == name })
            else {
                return reply(.error(name: "org.freedesktop.DBus.Error.UnknownProperty", message: "no such property"), to: message)
            }
            replyVariant(property.value, to: message)
        case "GetAll":
            var all: [String: DBusValue] = [:]
            if interface == DBusNames.interface || interface.isEmpty {
                for property in DBusIntrospection.properties { all[property.name] = property.value }
            }
            reply(.values([.dictionary(all)]), to: message)
        case "Set":
            reply(.error(name: "org.freedesktop.DBus.Error.PropertyReadOnly", message: "the properties are read-only"), to: message)
        default:
            reply(.error(name: "org.freedesktop.DBus.Error.UnknownMethod", message: "no method \(member) in Properties"), to: message)
        }
    }

    private func invalidArgs(_ message: String) -> DBusCall.Reply {
        .error(name: "org.freedesktop.DBus.Error.InvalidArgs", message: message)
    }

    func reply(_ reply: DBusCall.Reply, to message: OpaquePointer) {
        switch reply {
        case .values(let values):
            send(to: message) { out throws(DBusMessageCoding.Failure) in
                for value in values { try DBusMessageCoding.append(out, value) }
            }
        case .error(let name, let text):
            _ = name.withCString { name in
                text.withCString { text in
                    var error = sd_bus_error(name: name, message: text, _need_free: 0)
                    return sd_bus_reply_method_error(message, &error)
                }
            }
        }
    }

    private func replyVariant(_ value: DBusValue, to message: OpaquePointer) {
        send(to: message) { out throws(DBusMessageCoding.Failure) in try DBusMessageCoding.appendVariant(out, value) }
    }

    private func send(to message: OpaquePointer, _ fill: (OpaquePointer) throws(DBusMessageCoding.Failure) -> Void) {
        var out: OpaquePointer?
        guard sd_bus_message_new_method_return(message, &out) >= 0, let out else { return }
        defer { sd_bus_message_unref(out) }
        do {
            try fill(out)
        } catch {
            return reply(.error(name: DBusErrorName.name(for: -32603), message: "internal error: reply not written"), to: message)
        }
        _ = sd_bus_send(nil, out, nil)
    }

    func emit(_ signal: DBusSignal, on bus: OpaquePointer) {
        var out: OpaquePointer?
        guard sd_bus_message_new_signal(bus, &out, DBusNames.objectPath, DBusNames.interface, signal.name) >= 0, let out else { return }
        defer { sd_bus_message_unref(out) }
        do {
            for arg in signal.args { try DBusMessageCoding.append(out, .string(arg)) }
        } catch {
            return
        }
        _ = sd_bus_send(bus, out, nil)
    }
}
