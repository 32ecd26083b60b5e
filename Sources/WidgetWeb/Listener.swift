/// One place the host serves: `HOST:PORT` over TCP, or `unix:PATH`, a unix socket whose file
/// mode decides who may connect (docs/hosts.md, "Listeners").
public enum Listener: Sendable, Equatable, CustomStringConvertible {
    case tcp(ListenAddress)
    case unix(path: String)

    public init?(_ text: String) {
        if text.hasPrefix("unix:") {
            let path = String(text.dropFirst(5))
            // A socket's path must fit sockaddr_un (108 bytes with its terminating zero).
            guard !path.isEmpty, path.utf8.count < 108, !path.utf8.contains(0) else { return nil }
            self = .unix(path: path)
        } else if let address = ListenAddress(text) {
            self = .tcp(address)
        } else {
            return nil
        }
    }

    public var description: String {
        switch self {
        case .tcp(let address): address.description
        case .unix(let path): "unix:" + path
        }
    }
}
