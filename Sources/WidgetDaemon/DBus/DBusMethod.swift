import WidgetCore
import WidgetProtocol

/// One method of `WidgetCenter1`: the method spec it is served by, how its in-args become
/// that spec's params, and how the spec's result becomes its out-args. Everything else (who
/// may call it, validation, the commit before the answer, errors) is the socket's.
struct DBusMethod: Sendable {
    struct Argument: Sendable, Hashable {
        let name: String
        let signature: String
    }

    /// The D-Bus member name.
    let name: String
    let spec: any MethodSpec.Type
    let inArgs: [Argument]
    let outArgs: [Argument]
    /// The params, from the in-args read as JSON in order (`as` an array of strings, `a{sv}`
    /// an object, `s` a string, `b` a boolean).
    let params: @Sendable ([JSONValue]) -> JSONValue
    /// The out-args, from the result; nil when the result does not have the expected shape.
    let result: @Sendable (JSONValue) -> [DBusValue]?

    var inSignature: String { inArgs.map(\.signature).joined() }
    var outSignature: String { outArgs.map(\.signature).joined() }
}

extension DBusMethod.Argument {
    static func strings(_ name: String) -> Self { Self(name: name, signature: "as") }
    static func string(_ name: String) -> Self { Self(name: name, signature: "s") }
    static func boolean(_ name: String) -> Self { Self(name: name, signature: "b") }
    static func count(_ name: String) -> Self { Self(name: name, signature: "u") }
    static func dictionary(_ name: String) -> Self { Self(name: name, signature: "a{sv}") }
    static func dictionaries(_ name: String) -> Self { Self(name: name, signature: "aa{sv}") }
}
