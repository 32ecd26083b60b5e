import Foundation
import WidgetCore

extension Engine {
    /// SIGHUP: re-reads descriptors (resolving owners again) and settings. Invalid settings
    /// keep the old ones, with the old access policy; a bad descriptor file is skipped as at start-up.
    public func reload(settings newSettings: DaemonSettings?, access newAccess: AccessPolicy? = nil) {
        catalog = DescriptorCatalog.load(from: widgetsDirectories)
        if let newAccess { accessPolicy = newAccess }
        optionsCache.removeAll()
        optionsGeneration += 1
        normalizeConfigurations()
        for problem in catalog.problems {
            logger.warning("descriptor skipped", metadata: ["path": "\(problem.path)", "reason": "\(problem.reason)"])
        }
        if let newSettings {
            let concurrency = newSettings.maxConcurrentProviders
            let runner = self.runner
            Task { await runner.setMaxConcurrent(concurrency) }
            settings = newSettings
            connections.setMax(newSettings.limits.maxConnections)
            applyRetention()
            warnIfOverLimits()
            scheduler.coalescingWindow = newSettings.coalescingWindow
            scheduler.updateBudget(
                limit: newSettings.dailyReloadLimit, spacing: newSettings.minimumSpacing, enabled: newSettings.budgetEnabled)
        }
        for instance in instances.values {
            scheduler.updateProvider(instance.id, providerKey: providerKey(for: instance.kind))
            // A kind that (re)gained a provider picks up its schedule where its timeline says.
            guard hasProvider(instance.kind), scheduler.pendingReload(for: instance.id) == nil,
                !scheduler.isInFlight(instance.id)
            else { continue }
            if let stored = timelines[instance.id] {
                scheduler.setPolicyDue(instance.id, policyDue(for: instance.kind, stored.timeline, receivedAt: stored.receivedAt))
            } else {
                scheduler.request(instance.id, reason: .initial, at: now)
            }
        }
        // Weights, limits, intent types and configurations may all have changed.
        dirtyStacks.formUnion(stacks.keys)
        logger.info("configuration reloaded", metadata: ["kinds": "\(catalog.descriptors.count)", "problems": "\(catalog.problems.count)"])
        doorbell.ring()
    }

    /// Graceful stop: no new launches; running providers are killed and their outcome applied,
    /// so every write that was started finishes.
    public func shutdown() async {
        stopping = true
        await runner.terminateAll()
        await drainRunning()
    }

    nonisolated var bell: Doorbell { doorbell }
}
