import Foundation

/// The JSON widgetd writes on a provider's stdin (docs/providers.md): the daemon encodes it,
/// the SDK decodes it. The top-level fields describe the first instance of the launch (what a
/// one-instance provider needs); `instances` (`timeline` only) lists every instance the launch
/// serves, in the order a `{"timelines": [...]}` answer must follow. Fields a verb does not
/// use are nil and left out.
public struct ProviderRequest: Codable, Sendable, Hashable {
    /// One instance of a `timeline` launch.
    public struct Member: Codable, Sendable, Hashable {
        public var instance: String?
        public var kind: String
        public var family: WidgetFamily
        public var configuration: [String: JSONValue]?

        public init(instance: String?, kind: String, family: WidgetFamily, configuration: [String: JSONValue]?) {
            self.instance = instance
            self.kind = kind
            self.family = family
            self.configuration = configuration
        }
    }

    /// The intent of a `perform` request: `{"type", "parameters"}`.
    public struct Intent: Codable, Sendable, Hashable {
        public var type: String
        public var parameters: [String: JSONValue]?

        public init(type: String, parameters: [String: JSONValue]?) {
            self.type = type
            self.parameters = parameters
        }
    }

    /// Also the provider's last argument; absent from requests written before it was sent.
    public var verb: String?
    public var kind: String
    public var family: WidgetFamily
    public var configuration: [String: JSONValue]?
    public var now: Date
    /// `timeline`: the first instance; `relevance` and `perform`: the instance asked about.
    public var instance: String?
    public var instances: [Member]?
    /// `snapshot` and `placeholder`: the request is for a gallery's preview.
    public var isPreview: Bool?
    /// `options`: the entity parameter asked about, and the text typed so far.
    public var parameter: String?
    public var search: String?
    public var intent: Intent?

    public init(
        verb: String?, kind: String, family: WidgetFamily, configuration: [String: JSONValue]?, now: Date,
        instance: String? = nil, instances: [Member]? = nil, isPreview: Bool? = nil, parameter: String? = nil,
        search: String? = nil, intent: Intent? = nil
    ) {
        self.verb = verb
        self.kind = kind
        self.family = family
        self.configuration = configuration
        self.now = now
        self.instance = instance
        self.instances = instances
        self.isPreview = isPreview
        self.parameter = parameter
        self.search = search
        self.intent = intent
    }
}
