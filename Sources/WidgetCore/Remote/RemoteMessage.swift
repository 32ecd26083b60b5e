import Foundation

/// One remote update, read from an MQTT message's topic and payload (docs/remote.md).
public enum RemoteMessage: Sendable, Hashable {
    /// `PREFIX/reload` with `{"kinds": [...]}`.
    case reload(kinds: [String])
    /// `PREFIX/reload` with `{"all": true}`.
    case reloadAll
    /// `PREFIX/push/INSTANCE`: the payload is Timeline JSON, as `widgetctl push` takes it.
    case push(instance: String, timeline: [UInt8])
    /// `PREFIX/donate`: the payload is the `donate` method's params.
    case donate(params: [UInt8])

    /// The remote reload budget's name for what a reload acts on: each kind, or `*` for all
    /// (which names no kind, so it has a budget of its own).
    public static let allTarget = "*"

    /// What a reload counts against in the remote budget; empty for pushes and donations.
    public var reloadTargets: [String] {
        switch self {
        case .reload(let kinds): kinds
        case .reloadAll: [Self.allTarget]
        case .push, .donate: []
        }
    }

    /// A donation's intent type and id, when it has an id: how a redelivered copy is known.
    public var donationKey: (intentType: String, id: String)? {
        guard case .donate(let params) = self,
            let object = (try? JSONDecoder().decode(JSONValue.self, from: Data(params)))?.objectValue,
            let type = object["intentType"]?.stringValue, let id = object["id"]?.stringValue
        else { return nil }
        return (type, id)
    }
}

/// Why a remote message was refused before reaching the engine.
public struct RemoteRefusal: Error, Sendable, Hashable, CustomStringConvertible {
    public var reason: String
    public init(_ reason: String) { self.reason = reason }
    public var description: String { reason }
}

/// The topics under a prefix, and reading a message that arrived on one.
public struct RemoteTopics: Sendable, Hashable {
    public var prefix: String

    public init(prefix: String) {
        self.prefix = prefix
    }

    /// What widgetd subscribes to.
    public var subscriptions: [String] { [prefix + "/reload", prefix + "/push/+", prefix + "/donate"] }

    /// A prefix that is a plain topic: no wildcards, no empty first or last level.
    public static func isValidPrefix(_ prefix: String) -> Bool {
        !prefix.isEmpty && prefix.utf8.count <= 1024 && !prefix.contains("+") && !prefix.contains("#")
            && !prefix.hasPrefix("/") && !prefix.hasSuffix("/") && !prefix.contains("\u{0}")
    }

    /// The update a message carries, or why it is refused.
    public func message(topic: String, payload: [UInt8]) throws(RemoteRefusal) -> RemoteMessage {
        guard topic.hasPrefix(prefix + "/") else { throw RemoteRefusal("topic outside \(prefix)/") }
        let rest = topic.dropFirst(prefix.count + 1)
        switch rest {
        case "reload":
            return try Self.reload(payload)
        case "donate":
            try Self.checkObject(payload)
            return .donate(params: payload)
        default:
            guard rest.hasPrefix("push/") else { throw RemoteRefusal("unknown topic") }
            let instance = String(rest.dropFirst("push/".count))
            guard !instance.isEmpty, !instance.contains("/") else { throw RemoteRefusal("push topic names no instance") }
            try Self.checkObject(payload)
            return .push(instance: instance, timeline: payload)
        }
    }

    /// `{"kinds": ["k", ...]}` or `{"all": true}`, nothing else.
    private static func reload(_ payload: [UInt8]) throws(RemoteRefusal) -> RemoteMessage {
        try checkObject(payload)
        guard let value = try? JSONDecoder().decode(JSONValue.self, from: Data(payload)), let object = value.objectValue else {
            throw RemoteRefusal("payload is not a JSON object")
        }
        if let unknown = object.keys.sorted().first(where: { $0 != "kinds" && $0 != "all" }) {
            throw RemoteRefusal("reload: unknown key '\(unknown)' (give kinds or all)")
        }
        switch (object["kinds"], object["all"]) {
        case (.array(let items)?, nil):
            let kinds = items.compactMap(\.stringValue)
            guard !kinds.isEmpty, kinds.count == items.count, kinds.allSatisfy({ !$0.isEmpty }) else {
                throw RemoteRefusal("reload: kinds must be a non-empty array of kind names")
            }
            var seen = Set<String>()
            return .reload(kinds: kinds.filter { seen.insert($0).inserted })
        case (nil, .bool(true)?):
            return .reloadAll
        default:
            throw RemoteRefusal(#"reload: give {"kinds": [...]} or {"all": true}"#)
        }
    }

    /// Exactly one JSON object, so that it can be nested in a request as it is.
    private static func checkObject(_ payload: [UInt8]) throws(RemoteRefusal) {
        if let error = JSONSyntax.check(payload) { throw RemoteRefusal("payload is not JSON: \(error)") }
        let first = payload.first { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }
        guard first == UInt8(ascii: "{") else { throw RemoteRefusal("payload is not a JSON object") }
    }
}
