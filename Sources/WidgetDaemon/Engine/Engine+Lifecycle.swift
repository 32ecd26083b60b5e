import Foundation
import WidgetCore
import WidgetProtocol

extension Engine {
    /// Rebuilds the state from what the store holds (after any restart), and carries out what
    /// is due.
    public func restore() async throws {
        let persisted = try await store.load()
        rowsLeftOut = persisted.quarantined.count
        let (background, notes) = state.restore(persisted, at: now)
        log(notes)
        logger.info("state directory", metadata: ["state": "\(setup.stateDirectory)"])
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
            await runner.setMaxConcurrent(newSettings.maxConcurrentProviders)
            connections.setLimits(.init(newSettings.limits))
        }
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            readDescriptors(.signal, settings: newSettings) { _ in done.resume() }
        }
        logger.info("configuration reloaded", metadata: ["kinds": "\(state.descriptors.count)", "problems": "\(catalogProblems.count)"])
    }

    /// Graceful stop: no new launches; running providers are killed and their outcome applied,
    /// so every write that was started finishes.
    public func shutdown() async {
        stopping = true
        cancelTimer()
        await runner.terminateAll()
        await launchesIdle()
        await plansIdle()
    }
}
