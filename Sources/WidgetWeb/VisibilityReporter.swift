import ServiceLifecycle
import WidgetCore
import WidgetProtocol

/// Sends widgetd the instances the browsers show (method `visible`), one report at a time and
/// only the latest: a report that waits behind another is replaced by a newer one.
final class VisibilityReporter: Service, Sendable {
    private let daemon: DaemonClient
    private let reports: AsyncStream<[InstanceID]>
    private let submitted: AsyncStream<[InstanceID]>.Continuation

    init(daemon: DaemonClient) {
        self.daemon = daemon
        (reports, submitted) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1))
    }

    func submit(_ instances: [InstanceID]) {
        submitted.yield(instances)
    }

    func run() async {
        await cancelWhenGracefulShutdown {
            for await instances in self.reports {
                await self.report(instances)
            }
        }
    }

    /// An instance removed while a page still showed it makes widgetd refuse the whole
    /// report: it is sent again without the instances widgetd no longer has.
    private func report(_ instances: [InstanceID]) async {
        do {
            _ = try await daemon.call(Methods.Visible.self, VisibleParams(instances: instances))
        } catch where error.error.code == RPCError.Code.unknownInstance {
            guard let live = try? await daemon.call(Methods.List.self, EmptyParams()) else { return }
            let known = Set(live.map(\.id))
            _ = try? await daemon.call(Methods.Visible.self, VisibleParams(instances: instances.filter(known.contains)))
        } catch {
            // widgetd is away: the subscription reports again once it is back.
        }
    }
}
