import WidgetCore

/// One control-socket method, declared once: its name on the wire, its params and result,
/// who may call it and what it acts on. The daemon registers a handler per spec, the client
/// calls `WidgetdConnection.call(Spec.self, params)` and gets `Result`, and docs/protocol.md's
/// method table is checked against the specs (`Methods.all`).
public protocol MethodSpec: Sendable {
    /// What the request carries; `EmptyParams` for a method that takes none.
    associatedtype Params: Codable & Sendable
    /// What a success answers with.
    associatedtype Result: Codable & Sendable

    /// The method's name on the wire (`stack.show`).
    static var name: String { get }
    /// Who may call it.
    static var access: MethodAccess { get }
    /// What a call acts on, read from its params: the kinds (and instances) whose owners
    /// may make it. Asked only for `.kinds` access; by default the call names no kind.
    static func subject(of params: Params) -> AccessSubject
    /// One line on what it does.
    static var summary: String { get }
    /// Params with every field given: the form docs/protocol.md lists and tests start from.
    static var example: Params { get }
}

extension MethodSpec {
    public static func subject(of params: Params) -> AccessSubject { .none }
}

extension MethodSpec where Params == EmptyParams {
    public static var example: EmptyParams { EmptyParams() }
}

/// The methods' specs, one nested type per method, in files by domain (`InstanceMethods.swift`).
public enum Methods {
    /// Every method of the control socket; each domain's file lists its own.
    public static let all: [any MethodSpec.Type] =
        daemon + instances + configuration + timelines + stacks + donations + clock + context

    /// The spec named `name` on the wire.
    public static func named(_ name: String) -> (any MethodSpec.Type)? {
        byName[name]
    }

    private static let byName: [String: any MethodSpec.Type] = Dictionary(uniqueKeysWithValues: all.map { ($0.name, $0) })
}
