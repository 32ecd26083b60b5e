import CSystemd
import WidgetCore

/// Reading args out of and appending values to an `sd_bus_message`, on the bus thread.
enum DBusMessageCoding {
    struct Failure: Error {
        let code: Int32
    }

    // MARK: Reading

    /// The rest of `message`'s args, each read as JSON: strings and object paths as strings,
    /// booleans, integers, doubles, arrays, dictionaries (keys as text) and variants (their
    /// content).
    static func readAll(_ message: OpaquePointer) throws(Failure) -> [JSONValue] {
        var values: [JSONValue] = []
        while let value = try read(message) { values.append(value) }
        return values
    }

    /// The next value, or nil at the end of the message or the container entered.
    private static func read(_ message: OpaquePointer) throws(Failure) -> JSONValue? {
        var type: CChar = 0
        var contents: UnsafePointer<CChar>?
        let peeked = sd_bus_message_peek_type(message, &type, &contents)
        guard peeked >= 0 else { throw Failure(code: peeked) }
        guard peeked > 0 else { return nil }
        switch UInt8(bitPattern: type) {
        case UInt8(ascii: "a"):
            try check(sd_bus_message_enter_container(message, type, contents))
            let isDictionary = contents.map { $0.pointee == CChar(UInt8(ascii: "{")) } ?? false
            var array: [JSONValue] = []
            var object: [String: JSONValue] = [:]
            while true {
                if isDictionary {
                    var entryType: CChar = 0
                    var entryContents: UnsafePointer<CChar>?
                    let more = sd_bus_message_peek_type(message, &entryType, &entryContents)
                    guard more >= 0 else { throw Failure(code: more) }
                    guard more > 0 else { break }
                    try check(sd_bus_message_enter_container(message, entryType, entryContents))
                    let key = try read(message)
                    let value = try read(message)
                    try check(sd_bus_message_exit_container(message))
                    object[key.map(text) ?? ""] = value ?? .null
                } else {
                    guard let element = try read(message) else { break }
                    array.append(element)
                }
            }
            try check(sd_bus_message_exit_container(message))
            return isDictionary ? .object(object) : .array(array)
        case UInt8(ascii: "v"), UInt8(ascii: "r"):
            let isVariant = UInt8(bitPattern: type) == UInt8(ascii: "v")
            try check(sd_bus_message_enter_container(message, type, contents))
            var members: [JSONValue] = []
            while let member = try read(message) { members.append(member) }
            try check(sd_bus_message_exit_container(message))
            return isVariant ? (members.first ?? .null) : .array(members)
        default:
            return try readBasic(message, type)
        }
    }

    private static func readBasic(_ message: OpaquePointer, _ type: CChar) throws(Failure) -> JSONValue {
        switch UInt8(bitPattern: type) {
        case UInt8(ascii: "s"), UInt8(ascii: "o"), UInt8(ascii: "g"):
            var pointer: UnsafePointer<CChar>?
            try check(sd_bus_message_read_basic(message, type, &pointer))
            return .string(pointer.map { String(cString: $0) } ?? "")
        case UInt8(ascii: "b"):
            return .bool(try basic(Int32.self, message, type) != 0)
        case UInt8(ascii: "y"): return .integer(Int64(try basic(UInt8.self, message, type)))
        case UInt8(ascii: "n"): return .integer(Int64(try basic(Int16.self, message, type)))
        case UInt8(ascii: "q"): return .integer(Int64(try basic(UInt16.self, message, type)))
        case UInt8(ascii: "i"), UInt8(ascii: "h"): return .integer(Int64(try basic(Int32.self, message, type)))
        case UInt8(ascii: "u"): return .integer(Int64(try basic(UInt32.self, message, type)))
        case UInt8(ascii: "x"): return .integer(try basic(Int64.self, message, type))
        case UInt8(ascii: "t"):
            let value = try basic(UInt64.self, message, type)
            return Int64(exactly: value).map(JSONValue.integer) ?? .number(Double(value))
        case UInt8(ascii: "d"):
            var value: Double = 0
            try check(sd_bus_message_read_basic(message, type, &value))
            return .number(value)
        default:
            throw Failure(code: -EINVAL)
        }
    }

    /// One fixed-size basic value of D-Bus type `type`, read as the C type D-Bus gives it.
    private static func basic<Value: BinaryInteger>(
        _: Value.Type, _ message: OpaquePointer, _ type: CChar
    ) throws(Failure) -> Value {
        var value: Value = 0
        let status = withUnsafeMutableBytes(of: &value) { sd_bus_message_read_basic(message, type, $0.baseAddress) }
        try check(status)
        return value
    }

    /// A dictionary key as text (D-Bus keys are basic types).
    private static func text(_ key: JSONValue) -> String {
        switch key {
        case .string(let value): value
        case .integer(let value): String(value)
        case .number(let value): String(value)
        case .bool(let value): String(value)
        default: ""
        }
    }

    // MARK: Writing

    static func append(_ message: OpaquePointer, _ value: DBusValue) throws(Failure) {
        switch value {
        case .string(let text):
            try check(text.withCString { sd_bus_message_append_basic(message, type("s"), $0) })
        case .boolean(let flag):
            var raw: Int32 = flag ? 1 : 0
            try check(sd_bus_message_append_basic(message, type("b"), &raw))
        case .uint32(var raw):
            try check(sd_bus_message_append_basic(message, type("u"), &raw))
        case .int64(var raw):
            try check(sd_bus_message_append_basic(message, type("x"), &raw))
        case .double(var raw):
            try check(sd_bus_message_append_basic(message, type("d"), &raw))
        case .strings(let texts):
            try container(message, "a", "s") { () throws(Failure) in
                for text in texts { try append(message, .string(text)) }
            }
        case .variants(let values):
            try container(message, "a", "v") { () throws(Failure) in
                for element in values { try appendVariant(message, element) }
            }
        case .dictionary(let members):
            try appendDictionary(message, members)
        case .dictionaries(let list):
            try container(message, "a", "a{sv}") { () throws(Failure) in
                for members in list { try appendDictionary(message, members) }
            }
        }
    }

    /// `a{sv}`, keys sorted so that a reply reads the same every time.
    private static func appendDictionary(_ message: OpaquePointer, _ members: [String: DBusValue]) throws(Failure) {
        try container(message, "a", "{sv}") { () throws(Failure) in
            for key in members.keys.sorted() {
                try container(message, "e", "sv") { () throws(Failure) in
                    try append(message, .string(key))
                    try appendVariant(message, members[key]!)
                }
            }
        }
    }

    static func appendVariant(_ message: OpaquePointer, _ value: DBusValue) throws(Failure) {
        try container(message, "v", value.signature) { () throws(Failure) in try append(message, value) }
    }

    private static func container(
        _ message: OpaquePointer, _ kind: Character, _ contents: String, _ body: () throws(Failure) -> Void
    ) throws(Failure) {
        try check(contents.withCString { sd_bus_message_open_container(message, type(kind), $0) })
        try body()
        try check(sd_bus_message_close_container(message))
    }

    private static func type(_ character: Character) -> CChar {
        CChar(bitPattern: character.asciiValue!)
    }

    private static func check(_ result: Int32) throws(Failure) {
        if result < 0 { throw Failure(code: result) }
    }
}
