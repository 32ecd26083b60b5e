import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import LoopExecutor
import NIOCore
import ProcessSignals
import ResidentText
import ServiceLifecycle

/// The web host assembled: the routes, the subscription that feeds every browser, and the
/// reporter of what the browsers show, run as one service group until SIGTERM or SIGINT, with
/// one server per listener.
public struct WebHost: Sendable {
    public let socketPath: String?

    public init(socketPath: String?) {
        self.socketPath = socketPath
    }

    /// `maxConnections`: what each listener holds at once; `idleTimeout`: how long a connection
    /// keeps its slot with no request under way (a page's event stream is a request under way
    /// for as long as it is open, so it stays); `unixGroup`: the group a unix listener's socket
    /// is given (mode 0660).
    public func run(listening listeners: [Listener], maxConnections: Int, idleTimeout: TimeAmount, unixGroup: String) async throws {
        // A unix socket is created owner-only and opened to its group once bound, never
        // wider for a moment; the host writes no other file.
        umask(0o177)
        let fit = try DescriptorBudget.fit(connections: maxConnections, listeners: listeners.count)
        if let note = fit.note { FileHandle.standardError.write(Data(note.utf8)) }
        let daemon = DaemonClient(socketPath: socketPath)
        let reporter = VisibilityReporter(daemon: daemon)
        let hub = BrowserHub { shown in reporter.submit(shown) }
        let subscription = DaemonSubscription(socketPath: socketPath, hub: hub, reporter: reporter)
        let router = Router()
        // Outermost, so the guard's refusals and every error carry the framing headers too.
        router.add(middleware: FramingHeadersMiddleware())
        let hosts = listeners.compactMap { listener -> String? in if case .tcp(let address) = listener { address.host } else { nil } }
        router.add(middleware: SameOriginGuard(listenHosts: Set(hosts.map { $0.lowercased() })))
        WebRoutes(daemon: daemon, hub: hub, renderer: CardRenderer()).add(to: router)
        var logger = Logger(label: "widgetd-web")
        logger.logLevel = .warning
        let socket = socketPath ?? "the socket widgetctl would use"
        // Each named: without a name the group describes a service by reflecting over all it
        // holds, which looks up conformances across the whole program at start.
        var servers: [(service: any Service, name: String)] = [
            (subscription, "DaemonSubscription"), (reporter, "VisibilityReporter"),
        ]
        for listener in listeners {
            let limit = ConnectionLimit(maximum: fit.connections, listener: listener.description)
            let address: BindAddress
            switch listener {
            case .tcp(let tcp): address = .hostname(tcp.host, port: tcp.port)
            case .unix(let path): address = .unixDomainSocket(path: path)
            }
            let configuration = ServerConfiguration(
                address: address, serverName: "widgetd-web",
                availableConnectionsDelegate: MaximumAvailableConnections(fit.connections + ConnectionLimit.refusalSlots, logger: logger))
            servers.append((
                try WebServer.make(
                    router: router, server: .gated(limit, idleTimeout: idleTimeout), configuration: configuration, logger: logger,
                    onServerRunning: { channel in
                        Self.announce(listener, channel: channel, socket: socket, connections: fit.connections, unixGroup: unixGroup)
                        // Serving, and the first subscription under way: a moment later start-up's
                        // code is done with (once per listener; a second time is cheap).
                        // A timer of the loop: Task.sleep's delays go to libdispatch's pool.
                        LoopExecutor.loop.scheduleTask(in: .seconds(StartupText.settlingSeconds)) { StartupText.release() }
                    }),
                "WebServer \(listener.description)"))
        }
        // A thread of its own reads them: swift-service-lifecycle's
        // DispatchSource would start libdispatch's pool, which wakes the host every second. A
        // hang-up ends the host as it did when signals went unhandled.
        let (stops, stopInput) = AsyncStream.makeStream(of: CInt.self, bufferingPolicy: .bufferingNewest(1))
        try SignalThread.start(name: "widgetd-web-sig", routes: [SIGTERM: stopInput, SIGINT: stopInput, SIGHUP: stopInput])
        let group = ServiceGroup(
            configuration: .init(
                services: [ShutdownSignalService(signals: stops).configuration]
                    + servers.map { .init(service: $0.service, serviceName: $0.name) }, logger: logger))
        try await group.run()
    }

    /// The start-up line of a listener: where it serves and who it lets in. A unix socket is
    /// opened to its group here.
    private static func announce(_ listener: Listener, channel: any Channel, socket: String, connections: Int, unixGroup: String) {
        var lines: String
        switch listener {
        case .tcp(let address):
            // Port 0 asks for any free port: this line says which one it got.
            let shown = ListenAddress(host: address.host, port: channel.localAddress?.port ?? address.port)
            let who = Self.isLoopback(address.host)
                ? "every local user who can reach the port"
                : "every user who can reach the port, on this machine or another"
            lines = "widgetd-web: serving http://\(shown)/ (widgetd at \(socket)), at most \(connections) connections\n"
                + "widgetd-web: http://\(shown)/ lets in \(who): each gets the host's rights on widgetd (its host group: "
                + "manage instances and stacks), even a user widgetd's socket refuses; --listen unix:PATH lets a file mode decide\n"
        case .unix(let path):
            lines = "widgetd-web: serving unix:\(path) (widgetd at \(socket)), at most \(connections) connections: "
                + UnixListenerAccess.grant(path, group: unixGroup) + "\n"
        }
        FileHandle.standardError.write(Data(lines.utf8))
    }

    static func isLoopback(_ host: String) -> Bool {
        let host = host.lowercased()
        return host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }
}

/// Who may use a unix listener: its socket gets mode 0660 and the group `group`, so root, the
/// host's user and the group's members connect, and the kernel refuses everyone else.
enum UnixListenerAccess {
    /// Applies the mode and group; says who gets in.
    static func grant(_ path: String, group: String) -> String {
        chmod(path, 0o660)
        guard let entry = getgrnam(group) else {
            return "mode 0660, no group named '\(group)': only root and the host's user get in (--unix-group names another)"
        }
        guard chown(path, uid_t.max, entry.pointee.gr_gid) == 0 else {
            return "mode 0660, but the group '\(group)' could not be given (\(String(cString: strerror(errno)))): "
                + "only root and the host's user get in"
        }
        return "mode 0660, group \(group): root, the host's user and members of \(group) get in, with the host's rights on widgetd"
    }
}
