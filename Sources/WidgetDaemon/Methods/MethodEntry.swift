import Foundation
import WidgetCore
import WidgetProtocol

/// One method of the control socket as the daemon serves it: its spec's name and access,
/// and how a request for it is carried out (params decoded once, the caller authorized on
/// them as the spec says, the handler run), all in the engine's step.
struct MethodEntry: Sendable {
    let name: String
    let access: MethodAccess
    let run: @Sendable (isolated Engine, IncomingRequest, Call) -> Void
}

extension MethodEntry {
    /// Serves `spec` with `handler`, which gets the typed params and answers with the typed
    /// result. The access check is the spec's: open; the host group, refused before the params
    /// are read; or acting for kinds, decided on what the params name (a request that names
    /// no kind is scoped to the caller's own, `Reply.scope`).
    static func handle<Spec: MethodSpec>(
        _ spec: Spec.Type, _ handler: @escaping @Sendable (isolated Engine, Spec.Params, Reply<Spec.Result>) -> Void
    ) -> MethodEntry {
        // Found once here, not per request: a method without params reads none.
        let none = EmptyParams() as? Spec.Params
        switch Spec.access {
        case .open:
            return MethodEntry(name: Spec.name, access: .open) { engine, request, call in
                guard let params = none ?? params(Spec.self, request, call) else { return }
                handler(engine, params, Reply(call: call))
            }
        case .manage:
            return MethodEntry(name: Spec.name, access: .manage) { engine, request, call in
                var call = call
                guard engine.authorized(&call, Spec.name, .manage, .none) else { return }
                guard let params = none ?? params(Spec.self, request, call) else { return }
                handler(engine, params, Reply(call: call))
            }
        case .kinds(let verb):
            return MethodEntry(name: Spec.name, access: .kinds(verb)) { engine, request, call in
                guard let params = none ?? params(Spec.self, request, call) else { return }
                var call = call
                guard engine.authorized(&call, Spec.name, .kinds(verb), Spec.subject(of: params)) else { return }
                handler(engine, params, Reply(call: call))
            }
        }
    }

    /// The params, or nil when they do not decode (the call is then answered with the error).
    private static func params<Spec: MethodSpec>(_ spec: Spec.Type, _ request: IncomingRequest, _ call: Call) -> Spec.Params? {
        do {
            return try request.params(Spec.Params.self)
        } catch {
            call.fail(error)
            return nil
        }
    }
}
