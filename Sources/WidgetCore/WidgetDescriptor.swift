import Foundation

/// Declares a kind: names, families, the provider command and the intent schema
/// (docs/widgets.md).
public struct WidgetDescriptor: Sendable, Hashable, Codable {
    public var kind: String
    public var displayName: String
    public var description: String
    public var supportedFamilies: [WidgetFamily]
    public var provider: ProviderSpec?
    /// The intent (configuration) schema; nil for a widget without configuration.
    public var intent: IntentSchema?
    /// The file the descriptor came from, for messages.
    public var source: String
    /// Who may push, reload and donate for this kind besides root, the daemon's user and the
    /// host group; nil: nobody else.
    public var owner: KindOwner? = nil
    /// Why the kind cannot be used now (its provider's program is missing or cannot be run),
    /// found when descriptors load: the kind is still listed, with this, and placing or
    /// reloading its instances is refused with it.
    public var problem: String? = nil
    /// Colours of the kind's configuration sheet in a host (CSS colour strings), as WidgetKit's
    /// AccentColor and BackgroundColor assets.
    public var accentColor: String? = nil
    public var backgroundColor: String? = nil
    /// How hosts render the kind's entries; nil: each host's generic rendering.
    public var templates: DisplayTemplates? = nil
    /// The intent types its entries may attach as actions (buttons a host shows), each with its
    /// parameters as in `intent`; empty for a kind without actions.
    public var actions: [IntentSchema] = []
    /// The kinds of context clue its entries may name in `relevance.when`; a timeline naming
    /// another is refused (docs/clues.md).
    public var clues: Set<ClueKind> = []

    /// The declared intent type named `type`, if any.
    public func actionType(_ type: String) -> IntentSchema? {
        actions.first { $0.type == type }
    }

    public func supports(_ family: WidgetFamily) -> Bool {
        supportedFamilies.contains(family)
    }

    /// The configuration a provider receives for `given`; a kind without a schema takes none.
    public func effectiveConfiguration(
        _ given: [String: JSONValue], family: WidgetFamily
    ) throws(ConfigurationError) -> [String: JSONValue] {
        guard let intent else {
            if let name = given.keys.sorted().first {
                throw ConfigurationError(parameter: name, reason: "unknown parameter (kind '\(kind)' has no configuration)")
            }
            return [:]
        }
        return try intent.effectiveConfiguration(given, family: family)
    }
}

/// How to run a kind's provider.
public struct ProviderSpec: Sendable, Hashable, Codable {
    /// argv, with a relative program path already resolved against the descriptor's folder.
    public var exec: [String]
    /// Seconds before the provider is killed; nil means the daemon's default.
    public var timeout: TimeInterval?
    /// The provider answers batches (`{"timelines": [...]}`, one per requested instance), so
    /// one launch may serve instances of different kinds, families and configurations. Without
    /// it a launch only serves instances that would get the same answer.
    public var batch: Bool = false
    /// RLIMIT_DATA the kind asks for, in bytes; only less than `memory-max` takes effect.
    public var memoryMax: Int?
    /// RLIMIT_CPU the kind asks for, in seconds; only less than `cpu-max` takes effect.
    public var cpuMax: Int?

    /// Instances whose providers have equal keys share launches when their reloads merge.
    public var key: String { exec.joined(separator: "\u{0}") }
}

/// Mustache templates a host renders an entry's content with (docs/widgets.md, "Templates"):
/// the content's keys are the template's names. A host without a template for what it shows
/// falls back to its generic rendering, so every key is optional.
public struct DisplayTemplates: Sendable, Hashable, Codable {
    /// Path of an HTML template file, already resolved against the descriptor's folder: a web
    /// host's card.
    public var html: String?
    /// One line of text for a bar (Waybar's `text`, eww's label).
    public var text: String?
    /// The bar's tooltip.
    public var tooltip: String?

    public init(html: String? = nil, text: String? = nil, tooltip: String? = nil) {
        self.html = html
        self.text = text
        self.tooltip = tooltip
    }
}

/// A descriptor file that could not be used: reported with its path and reason, then skipped.
public struct DescriptorProblem: Error, Sendable, Hashable, Codable, CustomStringConvertible {
    public var path: String
    public var reason: String

    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    public var description: String { "\(path): \(reason)" }
}
