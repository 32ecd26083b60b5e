import Foundation
import Hummingbird
import Logging

/// The web host assembled: the routes, the subscription that feeds every browser, and the
/// reporter of what the browsers show, run as one service group until SIGTERM or SIGINT.
public struct WebHost: Sendable {
    public let socketPath: String?

    public init(socketPath: String?) {
        self.socketPath = socketPath
    }

    public func run(listening address: ListenAddress) async throws {
        let daemon = DaemonClient(socketPath: socketPath)
        let reporter = VisibilityReporter(daemon: daemon)
        let hub = EventHub { shown in reporter.submit(shown) }
        let subscription = DaemonSubscription(socketPath: socketPath, hub: hub, reporter: reporter)
        let router = Router()
        router.add(middleware: SameOriginGuard(listenHost: address.host))
        WebRoutes(daemon: daemon, hub: hub, renderer: CardRenderer()).add(to: router)
        var logger = Logger(label: "widgetd-web")
        logger.logLevel = .warning
        let socket = socketPath ?? "the socket widgetctl would use"
        let app = Application(
            router: router,
            configuration: ApplicationConfiguration(address: .hostname(address.host, port: address.port), serverName: "widgetd-web"),
            services: [subscription, reporter],
            onServerRunning: { channel in
                // Port 0 asks for any free port: this line says which one it got.
                let port = channel.localAddress?.port ?? address.port
                let shown = ListenAddress(host: address.host, port: port)
                FileHandle.standardError.write(Data("widgetd-web: serving http://\(shown)/ (widgetd at \(socket))\n".utf8))
            },
            logger: logger)
        try await app.runService()
    }
}
