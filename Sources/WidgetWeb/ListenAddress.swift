/// Where the web host listens: `HOST:PORT` (`[::1]:8080` for an IPv6 address). Port 0 lets
/// the system pick one; the host prints the address it got.
public struct ListenAddress: Sendable, Equatable, CustomStringConvertible {
    public var host: String
    public var port: Int

    /// Only this machine by default: the page can change instances and stacks.
    public static let standard = ListenAddress(host: "127.0.0.1", port: 8080)

    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    public init?(_ text: String) {
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]),
            (0...65535).contains(port)
        else { return nil }
        var host = String(text[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty else { return nil }
        self.init(host: host, port: port)
    }

    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}
