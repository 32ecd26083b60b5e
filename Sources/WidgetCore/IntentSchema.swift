import Foundation

/// A kind's configuration schema (WidgetKit's intent definition): the intent's type name,
/// its parameters in the order a configuration UI shows them, and the parameter sets that
/// are meaningful for prediction (`supportedCombinations`, used by donations).
public struct IntentSchema: Sendable, Hashable, Codable {
    public var type: String
    public var parameters: [IntentParameter]
    public var supportedCombinations: [[String]]

    public init(type: String, parameters: [IntentParameter], supportedCombinations: [[String]]) {
        self.type = type
        self.parameters = parameters
        self.supportedCombinations = supportedCombinations
    }

    public func parameter(_ name: String) -> IntentParameter? {
        parameters.first { $0.name == name }
    }
}

/// One configurable parameter (docs/widgets.md, intent schemas).
public struct IntentParameter: Sendable, Hashable, Codable {
    public var name: String
    public var title: String
    public var type: ParameterType
    /// Enum cases, for `type == .enum`.
    public var cases: [EnumCase]?
    public var `default`: JSONValue?
    public var min: Double?
    public var max: Double?
    /// The value is an array of `type`.
    public var multiple: Bool
    /// With `multiple`, the array's exact length per family (families not listed: any length).
    public var count: [WidgetFamily: Int]?
    /// 'Show If Parent': the parameter exists only while another has exactly this value.
    public var showIf: ShowIf?

    public init(
        name: String, title: String, type: ParameterType, cases: [EnumCase]? = nil, default: JSONValue? = nil,
        min: Double? = nil, max: Double? = nil, multiple: Bool = false, count: [WidgetFamily: Int]? = nil,
        showIf: ShowIf? = nil
    ) {
        self.name = name
        self.title = title
        self.type = type
        self.cases = cases
        self.default = `default`
        self.min = min
        self.max = max
        self.multiple = multiple
        self.count = count
        self.showIf = showIf
    }
}

public enum ParameterType: String, Sendable, Hashable, Codable, CaseIterable {
    case string, integer, decimal, boolean, date, `enum`, entity
}

/// One choice of a parameter: an enum case in the schema, or an entity option a provider
/// offers. Both are an id stored in the configuration and a name shown to people.
public struct IntentChoice: Sendable, Hashable, Codable {
    public var id: String
    public var display: String

    public init(id: String, display: String) {
        self.id = id
        self.display = display
    }
}

public typealias EnumCase = IntentChoice

public struct ShowIf: Sendable, Hashable, Codable {
    public var parameter: String
    public var equals: JSONValue

    public init(parameter: String, equals: JSONValue) {
        self.parameter = parameter
        self.equals = equals
    }
}

/// One choice for an `entity` parameter, as a provider's `options` verb offers it.
public typealias EntityOption = IntentChoice
