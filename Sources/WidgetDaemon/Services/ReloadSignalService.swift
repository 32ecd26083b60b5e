import Foundation
import Logging
import ServiceLifecycle
import WidgetCore

/// SIGHUP (`systemctl reload`): RELOADING=1, re-read descriptors and settings, READY=1.
public struct ReloadSignalService: Service {
    let signals: AsyncStream<CInt>
    let engine: Engine
    let notifier: SystemdNotifier
    let configPath: String?
    let budgetDisabled: Bool
    /// A user service (`--user-service`): the host group is not looked up.
    let singleUser: Bool
    let logger: Logger

    /// `signals` yields each SIGHUP (`SignalThread`); it must be blocked before READY=1, or an
    /// early SIGHUP kills the daemon.
    public init(
        signals: AsyncStream<CInt>, engine: Engine, notifier: SystemdNotifier, configPath: String?, budgetDisabled: Bool,
        singleUser: Bool = false, logger: Logger
    ) {
        self.signals = signals
        self.engine = engine
        self.notifier = notifier
        self.configPath = configPath
        self.budgetDisabled = budgetDisabled
        self.singleUser = singleUser
        self.logger = logger
    }

    public func run() async throws {
        await cancelWhenGracefulShutdown {
            for await _ in signals {
                notifier.reloading()
                var loaded: (settings: DaemonSettings, access: AccessPolicy)?
                do {
                    loaded = try SettingsLoader.loadWithAccess(
                        path: configPath, budgetDisabled: budgetDisabled, singleUser: singleUser)
                } catch {
                    logger.error("settings not reloaded; keeping the previous ones", metadata: ["error": "\(error)"])
                }
                await engine.reload(settings: loaded?.settings, access: loaded?.access)
                notifier.ready(status: await engine.statusLine())
            }
        }
    }
}
