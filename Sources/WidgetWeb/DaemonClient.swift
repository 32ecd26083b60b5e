import Foundation
import NIOPosix
import WidgetCore
import WidgetProtocol
import WidgetdClient

/// Calls to widgetd from request handlers. The client library blocks, so each call runs on a
/// thread of a pool, never on an event loop; each opens its own connection, so a slow
/// provider call (`preview`, `options`) holds up no other request.
final class DaemonClient: Sendable {
    let socketPath: String?
    private let pool: NIOThreadPool

    init(socketPath: String?, threads: Int = 4) {
        self.socketPath = socketPath
        pool = NIOThreadPool(numberOfThreads: threads)
        pool.start()
    }

    /// Calls `spec`'s method and gives its typed result.
    func call<Spec: MethodSpec>(_ spec: Spec.Type, _ params: Spec.Params) async throws(DaemonCallError) -> Spec.Result {
        try await run { connection throws(WidgetdClientError) in try connection.call(spec, params) }
    }

    /// Runs `body` with a fresh connection on the pool.
    func run<R: Sendable>(_ body: @escaping @Sendable (WidgetdConnection) throws(WidgetdClientError) -> R) async throws(DaemonCallError) -> R {
        let path = socketPath
        let outcome: Result<R, DaemonCallError>
        do {
            outcome = try await pool.runIfActive { () -> Result<R, DaemonCallError> in
                do throws(WidgetdClientError) {
                    return .success(try body(try WidgetdConnection(path: path)))
                } catch {
                    return .failure(DaemonCallError(error))
                }
            }
        } catch {
            throw DaemonCallError(status: 503, error: RPCError(code: -32010, message: "the web host is shutting down"))
        }
        return try outcome.get()
    }
}

/// A failed call, as the page gets it: an HTTP status and the daemon's error object (its
/// `data` names the parameter of a configuration the daemon refused).
struct DaemonCallError: Error, Sendable {
    var status: Int
    var error: RPCError

    init(status: Int, error: RPCError) {
        self.status = status
        self.error = error
    }

    init(_ failure: WidgetdClientError) {
        switch failure {
        case .daemon(let error):
            let notFound = [RPCError.Code.unknownKind, RPCError.Code.unknownInstance, RPCError.Code.unknownStack]
            let status = notFound.contains(error.code) ? 404 : error.code == RPCError.Code.permissionDenied ? 403 : 400
            self.init(status: status, error: error)
        default:
            // widgetd is not there or went away: the page says so and retries.
            self.init(status: 502, error: RPCError(code: -32000, message: failure.description))
        }
    }
}
