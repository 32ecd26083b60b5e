/// Why a bundle could not answer. The bundle's `main()` prints the description as one line on
/// stderr and exits non-zero, which widgetd logs as the reason of the failed call.
public enum WidgetProviderError: Error, Equatable, CustomStringConvertible {
    /// The verb is not `timeline`, `snapshot`, `placeholder`, `options`, `relevance` or `perform`.
    case unknownVerb(String)
    /// No configuration in the bundle has this kind.
    case unknownKind(String, served: [String])
    /// Two configurations in the bundle have the same kind.
    case duplicateKind(String)
    /// A listed type is neither a StaticConfiguration nor an IntentConfiguration.
    case unsupportedConfiguration(kind: String)
    /// The request is not valid JSON or lacks a field.
    case badRequest(String)
    /// The configuration does not decode as the provider's `Intent`.
    case badConfiguration(kind: String, reason: String)
    /// An entry could not be encoded as JSON.
    case badEntry(String)
    /// `options` was asked of a provider that is not a `DynamicOptionsProvider`, or for a
    /// parameter it does not offer options for.
    case noDynamicOptions(kind: String, parameter: String)
    /// `relevance` was asked of a provider that is not a `RelevanceProvider`.
    case noRelevance(kind: String)
    /// `perform` named an intent type the kind's configuration does not list in `actions:`.
    case unknownIntent(kind: String, type: String, declared: [String])
    /// A `perform` intent's parameters do not decode as its intent struct.
    case badIntent(type: String, reason: String)

    public var description: String {
        switch self {
        case .unknownVerb(let verb):
            return "unknown verb '\(verb)' (expected timeline, snapshot, placeholder, options, relevance or perform)"
        case .unknownKind(let kind, let served):
            return "unknown kind '\(kind)' (this bundle serves: \(served.joined(separator: ", ")))"
        case .duplicateKind(let kind): return "kind '\(kind)' is listed twice in the bundle"
        case .unsupportedConfiguration(let kind):
            return "kind '\(kind)': only StaticConfiguration and IntentConfiguration can be served"
        case .badRequest(let reason): return "bad request: \(reason)"
        case .badConfiguration(let kind, let reason): return "kind '\(kind)': configuration \(reason)"
        case .badEntry(let reason): return "cannot encode entry \(reason)"
        case .noDynamicOptions(let kind, let parameter):
            return "kind '\(kind)' has no dynamic options for parameter '\(parameter)'"
        case .noRelevance(let kind):
            return "kind '\(kind)' cannot give relevance without a timeline (its provider is not a RelevanceProvider)"
        case .unknownIntent(let kind, let type, let declared):
            let list = declared.isEmpty ? "none" : declared.joined(separator: ", ")
            return "kind '\(kind)' has no action intent '\(type)' (its configuration lists: \(list))"
        case .badIntent(let type, let reason): return "intent '\(type)': parameters \(reason)"
        }
    }
}
