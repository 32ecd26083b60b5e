import Foundation

/// Why the state refuses a change. The wire protocol turns each into its JSON-RPC error
/// (code and message), so the texts live in one place there.
public enum StateError: Error, Sendable, Hashable {
    case invalidParams(String)
    case invalidConfiguration(ConfigurationError)
    case unknownKind(String)
    /// The kind is declared but cannot be used now; the reason names the descriptor's field.
    case unusableKind(String, problem: String)
    case unknownInstance(InstanceID)
    /// A stored row of the instance does not decode: it can only be removed (`FailedInstance`).
    case failedInstance(InstanceID, reason: String)
    case unsupportedFamily(String, kind: String, supported: [WidgetFamily])
    case unknownStack(String)
    case stackExists(String)
    case limitExceeded(LimitExceeded)
}
