import Foundation
import WidgetCore
import WidgetProtocol

extension Engine {
    /// Rebuilds the state from what the store holds (after any restart), and carries out what
    /// is due.
    public func restore() async throws {
        let persisted = try await io.store.load()
        commits.rowsLeftOut = persisted.quarantined.count
        let (background, notes) = state.restore(persisted, at: now)
        log(notes)
        io.logger.info("state directory", metadata: ["state": "\(io.setup.stateDirectory)"])
        storeInBackground(background)
        settle(nil)
    }

    /// SIGHUP: re-reads descriptors (resolving owners again) and settings. Invalid settings
    /// keep the old ones, with the old access policy; a bad descriptor file is skipped as at
    /// start-up.
    public func reload(settings newSettings: DaemonSettings?, access newAccess: AccessPolicy? = nil) async {
        if let newAccess {
            // Serving one user is how the daemon was started, not a setting: a reload keeps it.
            access = access.singleUser
                ? AccessPolicy(daemonUID: newAccess.daemonUID, hostGroupName: newAccess.hostGroupName, singleUser: true)
                : newAccess
        }
        if let newSettings {
            await io.runner.setMaxConcurrent(newSettings.maxConcurrentProviders)
            connections.setLimits(.init(newSettings.limits))
        }
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            readDescriptors(.signal, settings: newSettings) { _ in done.resume() }
        }
        io.logger.info("configuration reloaded", metadata: ["kinds": "\(state.descriptors.count)", "problems": "\(catalog.problems.count)"])
    }

    /// Graceful stop: no new launches; running providers are killed and their outcome applied,
    /// so every write that was started finishes.
    public func shutdown() async {
        time.stopping = true
        cancelTimer()
        await io.runner.terminateAll()
        await launchesIdle()
        await plansIdle()
    }
}
