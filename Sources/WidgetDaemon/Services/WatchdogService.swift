import Foundation
import Logging
import NIOCore
import ServiceLifecycle

/// Proves liveness to systemd's watchdog from the engine's event loop, so a stuck engine
/// stops the pings. Without `WatchdogSec=` nothing is scheduled at all.
struct WatchdogService: Service {
    let loop: any EventLoop
    let notifier: SystemdNotifier
    let logger: Logger

    func run() async throws {
        guard let ping = notifier.watchdogPingInterval() else {
            try? await gracefulShutdown()
            return
        }
        logger.info("watchdog enabled", metadata: ["ping": "\(ping)"])
        let notifier = self.notifier
        let task = loop.scheduleRepeatedTask(initialDelay: .zero, delay: .nanoseconds(Int64(ping.components.seconds) * 1_000_000_000 + ping.components.attoseconds / 1_000_000_000)) { _ in
            notifier.watchdog()
        }
        try? await gracefulShutdown()
        task.cancel()
    }
}
