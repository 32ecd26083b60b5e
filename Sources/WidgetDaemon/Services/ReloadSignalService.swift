import Foundation
import Logging
import ServiceLifecycle
import UnixSignals
import WidgetCore

/// SIGHUP (`systemctl reload`): RELOADING=1, re-read descriptors and settings, READY=1.
public struct ReloadSignalService: Service {
    let engine: Engine
    let notifier: SystemdNotifier
    let configPath: String?
    let budgetDisabled: Bool
    let logger: Logger

    public init(engine: Engine, notifier: SystemdNotifier, configPath: String?, budgetDisabled: Bool, logger: Logger) {
        self.engine = engine
        self.notifier = notifier
        self.configPath = configPath
        self.budgetDisabled = budgetDisabled
        self.logger = logger
    }

    public func run() async throws {
        let signals = await UnixSignalsSequence(trapping: .sighup)
        await cancelWhenGracefulShutdown {
            for await _ in signals {
                notifier.reloading()
                var settings: DaemonSettings?
                do {
                    settings = try SettingsLoader.load(path: configPath, budgetDisabled: budgetDisabled)
                } catch {
                    logger.error("settings not reloaded; keeping the previous ones", metadata: ["error": "\(error)"])
                }
                await engine.reload(settings: settings)
                notifier.ready(status: await engine.statusLine())
            }
        }
    }
}
