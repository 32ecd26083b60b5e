import ServiceLifecycle

/// Ends its service group gracefully on the first signal its stream yields (SIGTERM,
/// SIGINT, from `SignalThread`). Run it with `successTerminationBehavior:
/// .gracefullyShutdownGroup` (`configuration`): its return is what shuts the group down.
public struct ShutdownSignalService: Service {
    let signals: AsyncStream<CInt>
    let caught: @Sendable (CInt) -> Void

    /// `caught` is told which signal began the shutdown (not called when something else did).
    public init(signals: AsyncStream<CInt>, caught: @escaping @Sendable (CInt) -> Void = { _ in }) {
        self.signals = signals
        self.caught = caught
    }

    public func run() async throws {
        for await signal in signals.cancelOnGracefulShutdown() {
            caught(signal)
            return
        }
    }

    /// The service as a group member whose return shuts the group down. Named here: without a
    /// name the group describes the service by reflecting over it, a start-up cost.
    public var configuration: ServiceGroupConfiguration.ServiceConfiguration {
        .init(
            service: self, successTerminationBehavior: .gracefullyShutdownGroup,
            failureTerminationBehavior: .gracefullyShutdownGroup, serviceName: "ShutdownSignalService")
    }
}
