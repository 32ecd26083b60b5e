import Glibc
import Hummingbird

/// Refuses what another web site could make a visitor's browser send to the host: the page
/// manages widgets and has no login, so the browser's own rules must keep other sites out.
/// - A `Host` that is neither an address, `localhost`, a TCP listener's host nor this
///   machine's name: a site whose name was made to resolve to 127.0.0.1 (DNS rebinding)
///   would pass the browser's same-origin rule.
/// - A change (any method but GET and HEAD) whose `Origin` is not this host: a cross-site
///   form or fetch; browsers send `Origin` with every such request.
struct SameOriginGuard<Context: RequestContext>: RouterMiddleware {
    /// The TCP listeners' hosts, lowercased.
    let listenHosts: Set<String>

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let authority = request.head.authority ?? ""
        guard isAllowed(hostName(authority)) else {
            return WebRoutes.failure(403, "requests for '\(authority)' are not served here: use the address or localhost")
        }
        if request.method != .get, request.method != .head, let origin = request.headers[.origin], origin != "http://" + authority {
            return WebRoutes.failure(403, "a page of \(origin) may not change widgets through this host")
        }
        return try await next(request, context)
    }

    /// `host:port`, `[v6]:port` or a bare host, without the port and brackets, lowercased.
    private func hostName(_ authority: String) -> String {
        var host = Substring(authority)
        if host.hasPrefix("["), let end = host.firstIndex(of: "]") {
            host = host[host.index(after: host.startIndex)..<end]
        } else if let colon = host.lastIndex(of: ":") {
            host = host[..<colon]
        }
        return host.lowercased()
    }

    private func isAllowed(_ host: String) -> Bool {
        if host == "localhost" || listenHosts.contains(host) || host == machineName { return true }
        var address = in6_addr()
        return inet_pton(AF_INET, host, &address) == 1 || inet_pton(AF_INET6, host, &address) == 1
    }

    private let machineName = MachineName.current
}

enum MachineName {
    static let current: String = {
        var name = [UInt8](repeating: 0, count: 256)
        guard gethostname(&name, name.count - 1) == 0 else { return "localhost" }
        return String(decoding: name.prefix { $0 != 0 }, as: UTF8.self).lowercased()
    }()
}
