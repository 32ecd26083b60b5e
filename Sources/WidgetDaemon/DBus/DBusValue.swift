import WidgetCore

/// A value widgetd writes into a D-Bus message: the out-args and signal args of
/// `WidgetCenter1`. JSON values travel as variants (`init(json:)`).
indirect enum DBusValue: Sendable, Hashable {
    case string(String)
    case boolean(Bool)
    case uint32(UInt32)
    case int64(Int64)
    case double(Double)
    /// `as`
    case strings([String])
    /// `av`: each element in a variant of its own type.
    case variants([DBusValue])
    /// `a{sv}`: each value in a variant of its own type.
    case dictionary([String: DBusValue])
    /// `aa{sv}`
    case dictionaries([[String: DBusValue]])

    /// The D-Bus type signature.
    var signature: String {
        switch self {
        case .string: "s"
        case .boolean: "b"
        case .uint32: "u"
        case .int64: "x"
        case .double: "d"
        case .strings: "as"
        case .variants: "av"
        case .dictionary: "a{sv}"
        case .dictionaries: "aa{sv}"
        }
    }

    /// A JSON value as the content of a variant: strings `s`, booleans `b`, integers `x`, other
    /// numbers `d`, arrays `av`, objects `a{sv}`. D-Bus has no null: a member whose value is
    /// null is left out of its `a{sv}`, and a null element of an array is an empty `av`.
    init(json: JSONValue) {
        switch json {
        case .null: self = .variants([])
        case .bool(let value): self = .boolean(value)
        case .integer(let value): self = .int64(value)
        case .number(let value): self = .double(value)
        case .string(let value): self = .string(value)
        case .array(let values): self = .variants(values.map(DBusValue.init(json:)))
        case .object(let members): self = .dictionary(Self.dictionary(members))
        }
    }

    /// An object's members as `a{sv}` contents, nulls left out.
    static func dictionary(_ members: [String: JSONValue]) -> [String: DBusValue] {
        var out: [String: DBusValue] = [:]
        for (key, value) in members where value != .null { out[key] = DBusValue(json: value) }
        return out
    }
}
