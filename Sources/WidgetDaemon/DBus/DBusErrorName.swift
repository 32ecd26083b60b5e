import WidgetProtocol

/// The D-Bus error a JSON-RPC error is answered with: `org.widgetd.WidgetCenter1.Error.NAME`,
/// NAME the code's name in `RPCError.Code`, with the JSON-RPC error's message.
enum DBusErrorName {
    static let names: [Int: String] = [
        RPCError.Code.parseError: "ParseError",
        RPCError.Code.invalidRequest: "InvalidRequest",
        RPCError.Code.methodNotFound: "MethodNotFound",
        RPCError.Code.invalidParams: "InvalidParams",
        RPCError.Code.internalError: "InternalError",
        RPCError.Code.unknownKind: "UnknownKind",
        RPCError.Code.unknownInstance: "UnknownInstance",
        RPCError.Code.unsupportedFamily: "UnsupportedFamily",
        RPCError.Code.clockNotVirtual: "ClockNotVirtual",
        RPCError.Code.storageFailure: "StorageFailure",
        RPCError.Code.messageTooLarge: "MessageTooLarge",
        RPCError.Code.busy: "Busy",
        RPCError.Code.noProvider: "NoProvider",
        RPCError.Code.providerFailed: "ProviderFailed",
        RPCError.Code.shuttingDown: "ShuttingDown",
        RPCError.Code.unknownStack: "UnknownStack",
        RPCError.Code.stackExists: "StackExists",
        RPCError.Code.permissionDenied: "PermissionDenied",
        RPCError.Code.limitExceeded: "LimitExceeded",
        RPCError.Code.unusableKind: "UnusableKind",
    ]

    /// The full error name for `code`; a code widgetd does not define is `Failed`.
    static func name(for code: Int) -> String {
        DBusNames.errorPrefix + (names[code] ?? "Failed")
    }
}
