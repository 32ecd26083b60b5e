import CSystemd
import Foundation
import LoopExecutor
import Logging
import ProcessSignals
import ServiceLifecycle
import WidgetCore
import WidgetDescriptorFiles
import WidgetStore

/// Wires the daemon together and runs it until SIGTERM/SIGINT. Readiness is announced only
/// once state is loaded and the socket listens.
struct Daemon {
    let options: DaemonOptions

    func run() async throws {
        let logger = Logger(label: "widgetd")
        let notifier = SystemdNotifier()
        // Writes to a vanished client must fail with EPIPE, not kill the daemon.
        signal(SIGPIPE, SIG_IGN)
        // A provider's descendant whose parent exits (a `setsid` or double-forked child) is
        // re-parented to the daemon, not to init, so its launch's end can still find, kill
        // and reap it (`LaunchContainment`).
        if widgetd_set_child_subreaper() != 0 {
            logger.warning("not a child subreaper: a provider's orphans may outlive its launch")
        }

        let settings: DaemonSettings
        let access: AccessPolicy
        do {
            (settings, access) = try SettingsLoader.loadWithAccess(
                path: options.configPath, budgetDisabled: options.budgetDisabled, singleUser: options.userService)
        } catch {
            throw SettingsFileError(underlying: error)
        }
        if options.userService, let own = options.widgetsDirectories.last {
            // Made when missing so that it is watched from the start: a file the user drops
            // in later is picked up at once, as in the system directory.
            do {
                try FileManager.default.createDirectory(atPath: own, withIntermediateDirectories: true)
            } catch {
                logger.warning("cannot make the user's widgets directory", metadata: ["folder": "\(own)", "error": "\(error)"])
            }
        }
        DescriptorLimit.ensure(connections: settings.limits.maxConnections, logger: logger)
        let catalog = DescriptorCatalog.load(from: options.widgetsDirectories, limits: settings.limits)
        catalog.logProblems(logger)
        // Read now, opened for writing below, once nothing else can stop the start: a start
        // that fails leaves the file as it was.
        let store = try SQLiteStateStore(directory: options.stateDirectory, deferWriting: true)
        // One event loop, like Redis's: the engine, every connection, the timer and every task
        // run on it, so a request reaches the engine without a hop. Stores and provider
        // launches block on threads of their own.
        if !LoopExecutor.isInstalled {
            logger.warning("tasks run on libdispatch's pool, whose monitor wakes the daemon every second")
        }
        let loop = LoopExecutor.loop
        let engine = Engine(
            loop: loop, store: store, runner: ExecProviderRunner(
                maxConcurrent: settings.maxConcurrentProviders,
                scopes: LaunchScopes.underSystemd(userService: options.userService, logger: logger)),
            settings: settings, catalog: catalog,
            setup: EngineSetup(widgetsDirectories: options.widgetsDirectories, stateDirectory: options.stateDirectory),
            virtualStart: options.virtualStart, logger: logger, statusReporter: StatusReporter(notifier: notifier),
            accessPolicy: access)
        try await engine.restore()

        let server = try await ControlServer.listen(
            path: options.socketPath, inheritedSocket: SocketActivation.controlSocket(),
            group: access.hostGroupName, gid: access.hostGID, private: options.userService, engine: engine, logger: logger)
        // Caught from here on and read by a thread of their own, not by swift-service-lifecycle's
        // DispatchSource, which would start libdispatch's pool. A SIGHUP before READY=1 waits
        // in the stream; more than one waiting is one reload.
        let (hangups, hangupInput) = AsyncStream.makeStream(of: CInt.self, bufferingPolicy: .bufferingNewest(1))
        let (stops, stopInput) = AsyncStream.makeStream(of: CInt.self, bufferingPolicy: .bufferingNewest(1))
        try SignalThread.start(name: "widgetd-signals", routes: [SIGHUP: hangupInput, SIGTERM: stopInput, SIGINT: stopInput])
        if options.virtualStart == nil {
            // The engine tells a step from time passing and logs it (EngineClock.wallStep).
            if !WallClockWatcher.start({ loop.execute { engine.assumeIsolated { $0.tick() } } }) {
                logger.warning("no CLOCK_REALTIME timerfd: wall-clock steps are noticed at the next wake-up only")
            }
        }
        // Local time matters on both clocks (donation affinity).
        let zoneWatched = TimeZoneWatcher.start { loop.execute { engine.assumeIsolated { $0.timeZoneChanged() } } }
        if !zoneWatched { logger.warning("no inotify on /etc: the time zone is looked at on every wake-up") }
        await engine.setTimeZoneWatched(zoneWatched)
        if options.watchWidgets {
            let watched = WidgetsDirectoryWatcher.start(directories: options.widgetsDirectories) {
                loop.execute { engine.assumeIsolated { $0.widgetsDirectoryChanged() } }
            }
            if watched {
                await engine.setWidgetsWatched(true)
                // What changed between the first read and the watch starting.
                await engine.widgetsDirectoryChanged()
            } else {
                logger.warning("no inotify on the widgets directories: changes are read on 'widgetctl widgets reload' or SIGHUP only")
            }
        }
        logger.info(
            "widgetd starting",
            metadata: ["socket": "\(server.boundPath ?? "systemd")", "kinds": "\(catalog.descriptors.count)",
                       "clock": "\(options.virtualStart.map { "virtual " + ISO8601.string(from: $0) } ?? "real")",
                       "budget": "\(settings.budgetEnabled ? "on" : "off")",
                       "service": "\(options.userService ? "user (uid \(access.daemonUID) only)" : "system")",
                       "host_group": "\(access.hostGroupName)\(access.hostGID.map { " (gid \($0))" } ?? " (no such group)")"])

        // Without a broker nothing about MQTT runs, not even a thread. What can fail here (an
        // unknown user, an unreadable password or certificate file) is a configuration fault.
        let remote: RemoteService?
        do {
            remote = try settings.remote.broker.map { broker in
                try RemoteService(
                    settings: settings.remote, broker: broker, engine: engine, stateDirectory: options.stateDirectory, logger: logger)
            }
        } catch {
            throw SettingsFileError(underlying: error)
        }
        // Without --dbus nothing about D-Bus runs. A bus that cannot be reached is logged and
        // tried again later: the socket is served either way.
        let dbus = try options.dbus.map {
            try DBusService(kind: $0, engine: engine, maxCallsPerUID: settings.limits.maxDBusCallsPerUID, logger: logger)
        }
        // The session's services live on the system bus for a user's service too. Signals
        // only: with nothing changing, its thread sleeps.
        let session = try options.contextBus
            ? SessionService(
                scope: options.userService ? .user(uid: getuid()) : .system, limits: settings.limits,
                engine: engine, logger: logger)
            : nil
        // Changes made since the state was read (retention, the first launches' answers, a
        // request that came in already) have waited for this.
        try store.openForWriting()
        typealias Entry = ServiceGroupConfiguration.ServiceConfiguration
        // Each named: without a name the group describes a service by reflecting over all it
        // holds (`"\(service)"`), which looked up conformances across the whole program and was
        // a tenth of the start's CPU.
        var services: [Entry] = [
            ShutdownSignalService(signals: stops) { signal in
                logger.info("shutting down", metadata: ["signal": "\(signal == SIGINT ? "SIGINT" : "SIGTERM")"])
            }.configuration,
            .init(service: server, serviceName: "ControlServer"),
            .init(service: WatchdogService(loop: loop, notifier: notifier, logger: logger), serviceName: "WatchdogService"),
            .init(
                service: ReloadSignalService(
                    signals: hangups, engine: engine, notifier: notifier, configPath: options.configPath,
                    budgetDisabled: options.budgetDisabled, singleUser: options.userService, logger: logger),
                serviceName: "ReloadSignalService"),
        ]
        if let remote { services.append(Entry(service: remote, serviceName: "RemoteService")) }
        if let dbus { services.append(Entry(service: dbus, serviceName: "DBusService")) }
        if let session { services.append(Entry(service: session, serviceName: "SessionService")) }
        // Last: the first told of a shutdown (the group stops services in reverse order).
        services.append(Entry(
            service: ReadinessService(engine: engine, notifier: notifier, logger: logger), serviceName: "ReadinessService"))
        let group = ServiceGroup(configuration: .init(
            services: services, logger: logger))
        try await group.run()
        await engine.shutdown()
        // STOPPING=1 and the last STATUS= are queued; give them a moment, not forever.
        if !notifier.drain(timeout: .seconds(2)) {
            logger.warning("NOTIFY_SOCKET is not being read; exiting without the last notifications")
        }
        store.close()
        logger.info("widgetd stopped")
    }
}
