import CSystemd
import Foundation
import LoopExecutor
import Logging
import NIOCore
import ResidentText
import ServiceLifecycle
import WidgetCore
import WidgetDescriptorFiles
import WidgetStore

/// READY=1 once the group runs (socket listening, state loaded, signals trapped);
/// STOPPING=1 as soon as graceful shutdown begins.
struct ReadinessService: Service {
    let engine: Engine
    let notifier: SystemdNotifier
    let logger: Logger

    func run() async throws {
        notifier.ready(status: await engine.statusLine())
        logger.info("widgetd ready")
        // Start-up's last work (the first scheduling pass, status, watches) ends within a moment
        // of READY=1; then its code is done with, and an idle daemon keeps mapped only what it
        // runs again. A timer of the loop: Task.sleep's delays go to libdispatch's pool.
        LoopExecutor.loop.scheduleTask(in: .seconds(StartupText.settlingSeconds)) { StartupText.release() }
        try? await gracefulShutdown()
        // STOPPING=1 carries the last status; no paced STATUS= may follow it.
        engine.statusReporter.close()
        notifier.stopping()
        // Before the socket drains: no new launches, running providers killed, so a long
        // `clock advance` ends instead of holding the shutdown.
        await engine.shutdown()
    }
}
