/// `[access]` of `widgetd.conf`.
public struct AccessSettings: Sendable, Hashable, Codable {
    public static let defaultHostGroup = "widgetd"

    /// The group whose members manage instances and stacks (the socket's group in
    /// systemd/widgetd.socket). Any other group must exist; the default may be missing (a
    /// user's own daemon), and then only root and the daemon's uid manage.
    public var hostGroup: String = AccessSettings.defaultHostGroup

    /// A missing host group is an error, unless it is the default.
    public var hostGroupMayBeMissing: Bool { hostGroup == Self.defaultHostGroup }

    public init() {}
}

extension AccessSettings {
    /// A user or group name as the system takes it: 1-64 bytes, no blanks, colon, slash or NUL.
    public static func isValidAccountName(_ name: String) -> Bool {
        (1...64).contains(name.utf8.count)
            && !name.unicodeScalars.contains { $0 == ":" || $0 == "/" || $0 == "\u{0}" || $0.properties.isWhitespace }
    }
}
