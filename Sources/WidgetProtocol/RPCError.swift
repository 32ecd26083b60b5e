import WidgetCore

/// A JSON-RPC error object. Standard codes from -32700..-32600; widgetd's own from -32000 down.
public struct RPCError: Error, Codable, Sendable, Hashable, CustomStringConvertible {
    public var code: Int
    public var message: String
    public var data: JSONValue?

    public init(code: Int, message: String, data: JSONValue? = nil) {
        self.code = code
        self.message = message
        self.data = data
    }

    public var description: String { "\(message) (\(code))" }
}

extension RPCError {
    public enum Code {
        public static let parseError = -32700
        public static let invalidRequest = -32600
        public static let methodNotFound = -32601
        public static let invalidParams = -32602
        public static let internalError = -32603
        public static let unknownKind = -32001
        public static let unknownInstance = -32002
        public static let unsupportedFamily = -32003
        public static let clockNotVirtual = -32004
        public static let storageFailure = -32005
        public static let messageTooLarge = -32006
        public static let busy = -32007
        public static let noProvider = -32008
        public static let providerFailed = -32009
        public static let shuttingDown = -32010
        public static let unknownStack = -32011
        public static let stackExists = -32012
        public static let permissionDenied = -32013
        public static let limitExceeded = -32014
        public static let unusableKind = -32015
    }

    public static func parseError(_ detail: String) -> RPCError {
        RPCError(code: Code.parseError, message: "parse error: \(detail)")
    }

    public static func invalidRequest(_ detail: String) -> RPCError {
        RPCError(code: Code.invalidRequest, message: "invalid request: \(detail)")
    }

    public static func methodNotFound(_ method: String) -> RPCError {
        RPCError(code: Code.methodNotFound, message: "method not found: '\(method)'")
    }

    public static func invalidParams(_ detail: String) -> RPCError {
        RPCError(code: Code.invalidParams, message: "invalid params: \(detail)")
    }

    /// `directories`: where the daemon reads descriptors, so the message says where a missing
    /// one belongs; `watched`: whether a file added there is picked up without being asked.
    public static func unknownKind(_ kind: String, directories: [String] = [], watched: Bool = false) -> RPCError {
        guard !directories.isEmpty else {
            return RPCError(code: Code.unknownKind, message: "unknown kind '\(kind)'", data: .object(["kind": .string(kind)]))
        }
        let pickUp = watched ? "add a descriptor there, it is picked up at once" : "add a descriptor there, then run 'widgetctl widgets reload'"
        return RPCError(
            code: Code.unknownKind,
            message: "unknown kind '\(kind)' (descriptors read from \(directories.joined(separator: ", ")); \(pickUp))",
            data: .object(["kind": .string(kind), "directories": .array(directories.map(JSONValue.string))]))
    }

    /// A kind whose descriptor loaded but whose provider cannot be run (`problem` says why).
    public static func unusableKind(_ kind: String, problem: String) -> RPCError {
        RPCError(
            code: Code.unusableKind, message: "kind '\(kind)' cannot be used: \(problem)",
            data: .object(["kind": .string(kind), "problem": .string(problem)]))
    }

    public static func unknownInstance(_ id: String) -> RPCError {
        RPCError(code: Code.unknownInstance, message: "no instance with id '\(id)'", data: .object(["id": .string(id)]))
    }

    /// The instance is known but not loaded: a stored row of it does not decode.
    public static func failedInstance(_ id: String, reason: String) -> RPCError {
        RPCError(
            code: Code.unknownInstance,
            message: "instance '\(id)' is not loaded: \(reason); 'widgetctl remove \(id)' removes it",
            data: .object(["id": .string(id), "failure": .string(reason)]))
    }

    public static func unsupportedFamily(_ family: String, kind: String, supported: [WidgetFamily]) -> RPCError {
        RPCError(
            code: Code.unsupportedFamily,
            message: "kind '\(kind)' does not support family '\(family)' (supported: \(supported.map(\.rawValue).joined(separator: ", ")))")
    }

    public static let clockNotVirtual = RPCError(
        code: Code.clockNotVirtual,
        message: "the daemon runs on the real clock; start it with --clock virtual:ISO8601 to move time")

    public static func unknownStack(_ name: String) -> RPCError {
        RPCError(code: Code.unknownStack, message: "no stack named '\(name)'")
    }

    public static func stackExists(_ name: String) -> RPCError {
        RPCError(code: Code.stackExists, message: "a stack named '\(name)' already exists")
    }

    public static let shuttingDown = RPCError(code: Code.shuttingDown, message: "widgetd is shutting down")

    public static func storageFailure(_ detail: String) -> RPCError {
        RPCError(code: Code.storageFailure, message: "state could not be saved, nothing changed: \(detail)")
    }

    /// The caller may not do this; `data` holds `method`, `kind` / `intentType` where one is
    /// involved, the caller's `uid`, and `allowed`: who may.
    public static func permissionDenied(_ refusal: AccessRefusal) -> RPCError {
        var data: [String: JSONValue] = [
            "method": .string(refusal.method), "uid": .integer(Int64(refusal.uid)),
            "allowed": .array(refusal.allowed.map(JSONValue.string)),
        ]
        if let kind = refusal.kind { data["kind"] = .string(kind) }
        if let type = refusal.intentType { data["intentType"] = .string(type) }
        return RPCError(code: Code.permissionDenied, message: refusal.description, data: .object(data))
    }

    public var isPermissionDenied: Bool { code == Code.permissionDenied }

    public static func messageTooLarge(limit: Int) -> RPCError {
        RPCError(code: Code.messageTooLarge, message: "message longer than \(limit) bytes; closing the connection")
    }
}

extension RPCError {
    public static func invalidConfiguration(_ error: ConfigurationError) -> RPCError {
        RPCError(
            code: Code.invalidParams, message: "invalid params: \(error.description)",
            data: .object(["parameter": .string(error.parameter), "reason": .string(error.reason)]))
    }

    public static func providerFailed(_ kind: String, _ reason: String) -> RPCError {
        RPCError(code: Code.providerFailed, message: "provider of '\(kind)' failed: \(reason)")
    }

    public static func noProvider(_ kind: String) -> RPCError {
        RPCError(code: Code.noProvider, message: "kind '\(kind)' has no provider")
    }
}

extension RPCError {
    /// The answer for a change the state refused.
    public init(_ error: StateError) {
        switch error {
        case .invalidParams(let detail): self = .invalidParams(detail)
        case .invalidConfiguration(let error): self = .invalidConfiguration(error)
        case .unknownKind(let kind): self = .unknownKind(kind)
        case .unusableKind(let kind, let problem): self = .unusableKind(kind, problem: problem)
        case .unknownInstance(let id): self = .unknownInstance(id)
        case .failedInstance(let id, let reason): self = .failedInstance(id, reason: reason)
        case .unsupportedFamily(let family, let kind, let supported): self = .unsupportedFamily(family, kind: kind, supported: supported)
        case .unknownStack(let name): self = .unknownStack(name)
        case .stackExists(let name): self = .stackExists(name)
        case .limitExceeded(let exceeded): self = .limitExceeded(exceeded)
        }
    }
}
