import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
import ServiceLifecycle

/// One listener's HTTP server: the router behind the connection gate, answered as
/// Hummingbird's `Application` answers, without the service `Application` adds to format the
/// `Date` header ahead of time. That service ticks every second for as long as the host runs,
/// so a kiosk's host at rest woke every second; here the header is formatted when a response
/// needs it, at most once per second of responses (`HTTPDateHeader`).
enum WebServer {
    static func make(
        router: Router<BasicRequestContext>, server: HTTPServerBuilder, configuration: ServerConfiguration, logger: Logger,
        onServerRunning: @escaping @Sendable (any Channel) async -> Void
    ) throws -> any Service {
        let responder = router.buildResponder()
        let serverName = configuration.serverName
        return try server.buildServer(
            configuration: configuration, eventLoopGroup: MultiThreadedEventLoopGroup.singleton, logger: logger
        ) { (request, responseWriter: consuming ResponseWriter, channel) in
            let context = BasicRequestContext(source: .init(channel: channel, logger: logger))
            var response: Response
            do {
                response = try await responder.respond(to: request, context: context)
            } catch let error as HTTPParserError {
                throw error
            } catch {
                logger.debug("unhandled error", metadata: ["error": "\(error)"])
                response = Response(status: .internalServerError, body: .init())
            }
            response.headers[.date] = HTTPDateHeader.now()
            if let serverName { response.headers[.server] = serverName }
            do {
                try await responseWriter.write(response: response.head, body: response.body)
            } catch is HTTPParserError {
                // The request went bad while its answer was being written: rethrown as itself,
                // the server would write a second response (400) after this one.
                throw ParseErrorWhileWriting()
            }
        } onServerRunning: {
            await onServerRunning($0)
        }
    }
}

/// Ends a connection whose request failed to parse while its response was being written.
struct ParseErrorWhileWriting: Error {}
