import Foundation
import Logging
import ServiceLifecycle

/// The one loop that carries out the schedule: process what is due, sleep on the monotonic
/// clock until the next deadline (or until the engine rings because the schedule changed).
/// It also proves liveness to systemd's watchdog, so a stuck engine stops the pings.
public struct SchedulerService: Service {
    let engine: Engine
    let notifier: SystemdNotifier
    let logger: Logger

    public init(engine: Engine, notifier: SystemdNotifier, logger: Logger) {
        self.engine = engine
        self.notifier = notifier
        self.logger = logger
    }

    public func run() async throws {
        let ping = notifier.watchdogPingInterval()
        if let ping { logger.info("watchdog enabled", metadata: ["ping": "\(ping)"]) }
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                // The tick hands STATUS= to the engine's reporter, which paces it off this loop.
                let (next, now, virtual) = await engine.tick()
                if ping != nil { notifier.watchdog() }
                // Virtual time moves only when told, so then only the doorbell or the watchdog wakes us.
                var wait: Duration = .seconds(3600)
                if let next, !virtual {
                    let seconds = max(0, next.timeIntervalSince(now))
                    wait = min(wait, .milliseconds(Int64((seconds * 1000).rounded(.up))))
                }
                if let ping { wait = min(wait, ping) }
                await engine.bell.wait(upTo: wait)
            }
        }
    }
}
