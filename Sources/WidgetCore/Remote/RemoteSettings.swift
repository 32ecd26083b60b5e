import Foundation

/// `[remote]` of `widgetd.conf`: remote updates through an MQTT broker (docs/remote.md).
/// Nothing about MQTT runs unless `broker` is set.
public struct RemoteSettings: Sendable, Hashable, Codable {
    /// Where the broker listens; nil: remote updates are off.
    public var broker: RemoteBroker?
    /// Topics are `PREFIX/reload`, `PREFIX/push/INSTANCE` and `PREFIX/donate`.
    public var topicPrefix: String = "widgetd"
    /// The MQTT client id of the persistent session; nil: `widgetd-HOSTNAME`.
    public var clientID: String?
    /// Remote reloads applied per target (a kind, or all) in any rolling 24 hours; more wait.
    public var reloadLimit: Int = 24
    /// Seconds between MQTT keepalive pings: the only periodic wake-up remote updates add.
    public var keepalive: TimeInterval = 60
    /// TLS: the CA certificates that sign the broker's; set, the connection uses TLS.
    public var caFile: String?
    /// TLS client certificate and its key, for brokers that require one.
    public var certFile: String?
    public var keyFile: String?
    /// Credentials: the password is read from a file, never written in widgetd.conf.
    public var username: String?
    public var passwordFile: String?
    /// Publish events and stacks' states under `PREFIX/state/`.
    public var publish = false
    /// The account remote messages act as, for the socket's authorization rules; nil: the
    /// daemon's own user (which may do everything).
    public var identity: RemoteIdentity?

    public init() {}

    /// The client id to use on a host named `hostname`.
    public func clientID(hostname: String) -> String {
        clientID ?? "widgetd-" + hostname
    }
}

/// How to reach the broker.
public enum RemoteBroker: Sendable, Hashable, Codable {
    /// `mqtt://HOST:PORT` (port 1883 when left out).
    case tcp(host: String, port: Int)
    /// `mqtt+unix:///path/to/socket`.
    case unix(path: String)

    public static let defaultPort = 1883

    /// Parses a broker address; nil when it is not one of the two forms.
    public init?(address: String) {
        if address.hasPrefix("mqtt+unix://") {
            let path = String(address.dropFirst("mqtt+unix://".count))
            guard path.hasPrefix("/"), path.utf8.count < 108 else { return nil }
            self = .unix(path: path)
            return
        }
        guard address.hasPrefix("mqtt://") else { return nil }
        let rest = address.dropFirst("mqtt://".count)
        guard !rest.isEmpty, !rest.contains("/"), !rest.contains("@") else { return nil }
        var host = String(rest)
        var port = Self.defaultPort
        // An IPv6 literal is bracketed: mqtt://[::1]:1883.
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { return nil }
            let after = host[host.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":"), let number = Int(after.dropFirst()) else { return nil }
                port = number
            }
            host = String(host[host.index(after: host.startIndex)..<close])
        } else if let colon = host.lastIndex(of: ":") {
            guard let number = Int(host[host.index(after: colon)...]) else { return nil }
            port = number
            host = String(host[..<colon])
        }
        guard !host.isEmpty, (1...65535).contains(port) else { return nil }
        self = .tcp(host: host, port: port)
    }
}

/// The account remote messages act as: by name (resolved at start) or by uid.
public enum RemoteIdentity: Sendable, Hashable, Codable {
    case user(String)
    case uid(UInt32)
}

extension RemoteSettings {
    /// One `key = value` of `[remote]`. String values may be quoted ("...").
    mutating func set(key: String, value rawValue: String, line: Int) throws(SettingsError) {
        let value = Self.unquoted(rawValue)
        func text() throws(SettingsError) -> String {
            guard !value.isEmpty, !value.contains("\u{0}") else {
                throw SettingsError(line: line, reason: "\(key): a value is required")
            }
            return value
        }
        func path() throws(SettingsError) -> String {
            let path = try text()
            guard path.hasPrefix("/") else { throw SettingsError(line: line, reason: "\(key): '\(path)' is not an absolute path") }
            return path
        }
        switch key {
        case "broker":
            guard let broker = RemoteBroker(address: value) else {
                throw SettingsError(
                    line: line, reason: "broker: '\(value)' is not mqtt://HOST:PORT or mqtt+unix:///PATH")
            }
            self.broker = broker
        case "topic-prefix":
            let prefix = try text()
            guard RemoteTopics.isValidPrefix(prefix) else {
                throw SettingsError(
                    line: line, reason: "topic-prefix: '\(prefix)' must be a topic without '+', '#', or a leading or trailing '/'")
            }
            topicPrefix = prefix
        case "client-id":
            let id = try text()
            guard id.utf8.count <= 65535 else { throw SettingsError(line: line, reason: "client-id: too long") }
            clientID = id
        case "reload-limit":
            guard let number = Int(value), (1...100_000).contains(number) else {
                throw SettingsError(line: line, reason: "reload-limit: '\(value)' is not an integer in 1...100000")
            }
            reloadLimit = number
        case "keepalive":
            // libmosquitto refuses less than 5 s.
            guard let seconds = DurationText.seconds(value), seconds >= 5, seconds <= 65535 else {
                throw SettingsError(line: line, reason: "keepalive: '\(value)' is not a duration in 5s...65535s")
            }
            keepalive = seconds
        case "publish":
            switch value {
            case "true": publish = true
            case "false": publish = false
            default: throw SettingsError(line: line, reason: "publish: '\(value)' is not true or false")
            }
        case "ca-file": caFile = try path()
        case "cert-file": certFile = try path()
        case "key-file": keyFile = try path()
        case "username": username = try text()
        case "password-file": passwordFile = try path()
        case "password":
            throw SettingsError(line: line, reason: "password: not in widgetd.conf; put it in a file and name it with password-file")
        case "user":
            let name = try text()
            guard AccessSettings.isValidAccountName(name) else {
                throw SettingsError(line: line, reason: "user: '\(name)' is not a user name")
            }
            identity = .user(name)
        case "uid":
            guard let uid = UInt32(value), uid != .max else {
                throw SettingsError(line: line, reason: "uid: '\(value)' is not a user id")
            }
            identity = .uid(uid)
        default:
            throw SettingsError(line: line, reason: "unknown key '\(key)' in [remote]")
        }
    }

    /// Checks that need the whole section: a certificate without its key is an error.
    func validate(line: Int) throws(SettingsError) {
        if (certFile == nil) != (keyFile == nil) {
            throw SettingsError(line: line, reason: "[remote] cert-file and key-file go together")
        }
        if (certFile != nil || keyFile != nil), caFile == nil {
            throw SettingsError(line: line, reason: "[remote] cert-file needs ca-file (TLS)")
        }
        if passwordFile != nil, username == nil {
            throw SettingsError(line: line, reason: "[remote] password-file needs username")
        }
    }

    private static func unquoted(_ value: String) -> String {
        guard value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") else { return value }
        return String(value.dropFirst().dropLast())
    }
}
