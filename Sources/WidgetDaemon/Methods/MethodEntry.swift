import Foundation
import WidgetCore
import WidgetProtocol

/// One method of the control socket: its name, who may call it, and how a request for it is
/// carried out (params decoded once, the caller authorized on them, the handler run), all in
/// the engine's step.
struct MethodEntry: Sendable {
    let method: RPCMethod
    let access: MethodAccess
    let run: @Sendable (isolated Engine, IncomingRequest, Call) -> Void

    var name: String { method.rawValue }
}

/// What a kind-scoped request acts on, read from its params.
enum AccessSubject: Sendable {
    case none
    /// These kinds, and the kinds of these instances (`push`, a reload of single instances).
    case kinds([String], instances: [InstanceID] = [])
    /// `donate`: every kind that declares the intent type.
    case intentType(String)
    /// Names no kind: the caller's own.
    case callersKinds
}

extension MethodEntry {
    /// Open to anyone who can connect; takes no params.
    static func open(_ method: RPCMethod, _ handler: @escaping @Sendable (isolated Engine, Call) -> Void) -> MethodEntry {
        MethodEntry(method: method, access: .open) { engine, _, call in handler(engine, call) }
    }

    /// Open to anyone who can connect.
    static func open<P: Decodable & Sendable>(
        _ method: RPCMethod, _ params: P.Type, _ handler: @escaping @Sendable (isolated Engine, P, Call) -> Void
    ) -> MethodEntry {
        MethodEntry(method: method, access: .open) { engine, request, call in
            guard let params = decode(P.self, request, call) else { return }
            handler(engine, params, call)
        }
    }

    /// Instances, stacks, visibility, the clock: the host group. A caller outside it is refused
    /// before its params are read.
    static func manage<P: Decodable & Sendable>(
        _ method: RPCMethod, _ params: P.Type, _ handler: @escaping @Sendable (isolated Engine, P, Call) -> Void
    ) -> MethodEntry {
        MethodEntry(method: method, access: .manage) { engine, request, call in
            var call = call
            guard engine.authorized(&call, method, .manage, .none) else { return }
            guard let params = decode(P.self, request, call) else { return }
            handler(engine, params, call)
        }
    }

    /// The host group, as above; takes no params.
    static func manage(_ method: RPCMethod, _ handler: @escaping @Sendable (isolated Engine, Call) -> Void) -> MethodEntry {
        MethodEntry(method: method, access: .manage) { engine, _, call in
            var call = call
            guard engine.authorized(&call, method, .manage, .none) else { return }
            handler(engine, call)
        }
    }

    /// Acts for kinds: their owners, and the host group as the access policy says. What it
    /// acts on is read from its params; a request that names no kind is scoped to the caller's
    /// own (`call.scope`).
    static func kinds<P: Decodable & Sendable>(
        _ method: RPCMethod, _ params: P.Type, _ verb: KindVerb, acts subject: @escaping @Sendable (P) -> AccessSubject,
        _ handler: @escaping @Sendable (isolated Engine, P, Call) -> Void
    ) -> MethodEntry {
        MethodEntry(method: method, access: .kinds(verb)) { engine, request, call in
            guard let params = decode(P.self, request, call) else { return }
            var call = call
            guard engine.authorized(&call, method, .kinds(verb), subject(params)) else { return }
            handler(engine, params, call)
        }
    }

    /// The params, or nil when they do not decode (the call is then answered with the error).
    private static func decode<P: Decodable>(_ type: P.Type, _ request: IncomingRequest, _ call: Call) -> P? {
        do {
            return try request.params(P.self)
        } catch {
            call.fail(error)
            return nil
        }
    }
}

/// Who may call a method, by class (`AccessPolicy` decides for a caller).
enum MethodAccess: Sendable, Hashable {
    /// Reads and provider calls that change nothing durable: anyone who can connect.
    case open
    /// Instances, stacks, visibility, the clock: the host group.
    case manage
    /// Acts for kinds: their owners, and the host group as `AccessPolicy` says.
    case kinds(KindVerb)
}
