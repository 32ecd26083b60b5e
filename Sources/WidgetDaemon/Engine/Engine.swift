import Foundation
import Logging
import WidgetCore
import WidgetProtocol
import WidgetStore

/// Owns the daemon's state: descriptors, instances, timelines and the scheduler. Requests and
/// the scheduler loop go through this actor; a state change is answered only after the store
/// has committed it, and memory is updated only after that.
public actor Engine {
    let store: any StateStore
    let runner: any ProviderRunning
    let logger: Logger
    let stateDirectory: String
    let widgetsDirectories: [String]
    let wallClock: @Sendable () -> Date

    var settings: DaemonSettings
    var catalog: DescriptorCatalog
    /// Who may do what (root, the daemon's uid, the host group); owners are in `catalog`.
    var accessPolicy: AccessPolicy
    /// The daemon's own uid, for the router's check that needs no hop into the actor.
    public nonisolated let accessDaemonUID: UInt32
    var scheduler: ReloadScheduler
    var instances: [InstanceID: WidgetInstance] = [:]
    var timelines: [InstanceID: StoredTimeline] = [:]
    var lastErrors: [InstanceID: String] = [:]
    /// The last failed write (its short cause and its message), while writes fail (nil once
    /// one succeeds).
    var storageFault: (cause: String, message: String)?
    /// Runs of identical provider failures, so a provider failing at every retry is logged once.
    var failureStreaks = FailureStreaks()
    /// Dynamic options fetched without search text, until invalidated or descriptors reload.
    var optionsCache: [OptionsKey: [EntityOption]] = [:]
    /// Bumped by every invalidation, so a fetch that started before one is not cached.
    var optionsGeneration = 0
    /// Instances with a request changing them in progress, and who waits for each.
    var instanceLocks: [InstanceID: [CheckedContinuation<Void, Never>]] = [:]
    /// Each instance's persisted reload request (with its sequence), and the last sequence given out.
    var storedRequests: [InstanceID: StoredRequest] = [:]
    var lastRequestSequence: Int64 = 0
    // Smart Stacks.
    var stacks: [String: StackState] = [:]
    /// Each with its local time read once in `calendar` (affinity reads it at every evaluation).
    var donations: [LocalDonation] = []
    /// Each instance's matching donations, as last matched (see `matchedDonations`), and a
    /// count of donation changes that tells a stale entry.
    var matchedDonationCache: [InstanceID: MatchedDonations] = [:]
    var donationGeneration = 0
    var relevance: [InstanceID: RelevanceHistory] = [:]
    var affinityModel = DonationAffinity()
    /// Time of day and weekends are read in the system's time zone (TZ, else /etc/localtime),
    /// re-read when it changes (`refreshTimeZone`).
    var calendar = Calendar.current
    /// What the time zone was last read from (see `SystemTimeZone.identity`).
    var timeZoneIdentity = SystemTimeZone.identity()
    /// Rung by `TimeZoneWatcher` when /etc/localtime changes; the next tick re-reads the zone.
    let timeZoneChanges = Doorbell()
    /// False when no watcher runs: then every tick looks at the zone's sources itself.
    var timeZoneWatched = false
    /// The wall clock and CLOCK_BOOTTIME at the last tick, to tell a wall-clock step from
    /// time passing (real clock only).
    var wallReference: (wall: Date, boot: Double)?
    /// Stacks to re-evaluate, and when each must be looked at again for reasons of time alone.
    var dirtyStacks: Set<String> = []
    var stackRecheck: [String: Date] = [:]
    /// Instances, stacks and donations being stored, counted against `[limits]` until in memory.
    var reserved = LimitReservations()
    /// What hosts show: the last `visible` report, and when each instance was last shown.
    var visibleNow: Set<InstanceID> = []
    var lastVisible: [InstanceID: Date] = [:]
    var rotationSettings: RotationSettings { settings.rotation }
    /// nil on the real clock; the current virtual instant otherwise.
    var virtualNow: Date?
    var running: [UInt64: Task<Void, Never>] = [:]
    var nextLaunchToken: UInt64 = 0
    var advancing = false
    var stopping = false
    let doorbell = Doorbell()
    /// When the scheduler loop wakes by itself next (nil: only when rung). A request rings it
    /// only when something comes due before that, not on every change.
    var loopWakesAt: Date?
    /// What the last STATUS= text was built from, so an unchanged summary is not rebuilt.
    var statusInputs: StatusInputs?
    /// STATUS= for systemd, paced and sent off the loop.
    public nonisolated let statusReporter: StatusReporter
    /// Entry changes, reloads, rotations and stack changes, for subscribers.
    public nonisolated let events = EventHub()
    /// Open control connections against `max-connections` (the socket server admits through it).
    public nonisolated let connections: ConnectionGate

    public init(
        store: any StateStore, runner: any ProviderRunning, settings: DaemonSettings, catalog: DescriptorCatalog,
        widgetsDirectories: [String], stateDirectory: String, virtualStart: Date?, logger: Logger,
        statusReporter: StatusReporter = .silent, wallClock: @escaping @Sendable () -> Date = { Date() },
        accessPolicy: AccessPolicy? = nil
    ) {
        let accessPolicy = accessPolicy ?? AccessPolicy(daemonUID: geteuid())
        self.accessPolicy = accessPolicy
        self.accessDaemonUID = accessPolicy.daemonUID
        self.statusReporter = statusReporter
        self.connections = ConnectionGate(max: settings.limits.maxConnections)
        self.store = store
        self.runner = runner
        self.settings = settings
        self.catalog = catalog
        self.widgetsDirectories = widgetsDirectories
        self.stateDirectory = stateDirectory
        self.virtualNow = virtualStart
        self.logger = logger
        self.wallClock = wallClock
        scheduler = ReloadScheduler(
            budget: ReloadBudget(
                limit: settings.dailyReloadLimit, spacing: settings.minimumSpacing, enabled: settings.budgetEnabled),
            coalescingWindow: settings.coalescingWindow)
    }

    /// The daemon's clock: virtual when started with `--clock virtual:`, the wall clock otherwise.
    var now: Date { virtualNow ?? wallClock() }
    public var isVirtual: Bool { virtualNow != nil }

    /// Rebuilds memory and the schedule from what the store holds (after any restart).
    public func restore() async throws {
        let state = try await store.load()
        let now = self.now
        instances.reserveCapacity(state.instances.count)
        timelines.reserveCapacity(state.timelines.count)
        scheduler.reserveCapacity(state.instances.count)
        for instance in state.instances {
            instances[instance.id] = instance
            scheduler.add(instance.id, kind: instance.kind, providerKey: providerKey(for: instance.kind))
            if let dates = state.budgetedReloads[instance.id] {
                // Reloads stored after `now` (the clock went back while widgetd was down) count as made now.
                scheduler.restoreHistory(instance.id, dates: dates.map { min($0, now) })
            }
            if let stored = state.timelines[instance.id] {
                timelines[instance.id] = stored
                var history = RelevanceHistory(settled: state.settledRelevance[instance.id] ?? [], timeline: stored.timeline)
                history.prune(before: now.addingTimeInterval(-rotationSettings.relevanceWindow), now: now)
                // Most timelines carry no relevance: no entry at all costs nothing per instance.
                if !history.isEmpty { relevance[instance.id] = history }
                scheduler.setPolicyDue(instance.id, policyDue(for: instance.kind, stored.timeline, receivedAt: stored.receivedAt))
                scheduler.setNextEntryChange(instance.id, stored.timeline.nextEntryDate(after: now))
            }
            if hasProvider(instance.kind) {
                if let request = state.requests[instance.id] {
                    scheduler.request(instance.id, reason: request.reason, at: request.wanted)
                    storedRequests[instance.id] = request
                    lastRequestSequence = max(lastRequestSequence, request.sequence)
                } else if state.timelines[instance.id] == nil {
                    scheduler.request(instance.id, reason: .initial, at: now)
                }
            }
        }
        normalizeConfigurations()
        for var stack in state.stacks {
            // A member whose instance is gone (removed before the stack was rewritten) goes.
            for gone in stack.instances where instances[gone] == nil { stack = Self.removing(gone, from: stack, at: now) }
            stacks[stack.name] = stack
            dirtyStacks.insert(stack.name)
        }
        donations = state.donations.map { LocalDonation($0, calendar: calendar) }
        applyRetention()
        lastVisible = state.lastVisible
        logger.info(
            "state restored",
            metadata: ["instances": "\(instances.count)", "timelines": "\(timelines.count)", "state": "\(stateDirectory)"])
        warnIfOverLimits()
        doorbell.ring()
    }

    // MARK: Helpers shared by the request and reload paths

    func providerKey(for kind: String) -> String {
        catalog[kind]?.provider?.key ?? ""
    }

    func hasProvider(_ kind: String) -> Bool {
        catalog[kind]?.provider != nil
    }

    /// The policy's due date. A provider answer whose policy is already due would reload at
    /// once, forever when the budget is off; such a reload waits the minimum spacing (at least
    /// 1 s) after the launch that produced it.
    func policyDue(for kind: String, _ timeline: Timeline, receivedAt: Date, fromProvider: Bool = false) -> Date? {
        guard hasProvider(kind), let date = timeline.policyDate(receivedAt: receivedAt) else { return nil }
        if fromProvider && date <= receivedAt {
            return receivedAt.addingTimeInterval(max(settings.minimumSpacing, 1))
        }
        return date
    }

    func instance(_ id: InstanceID) throws(RPCError) -> WidgetInstance {
        guard let instance = instances[id] else { throw .unknownInstance(id) }
        return instance
    }

    /// Writes `changes`; memory is changed by the caller only after this returns, so a refused
    /// write leaves nothing half-applied.
    func commit(_ changes: [StoreChange]) async throws(RPCError) {
        do {
            try await store.apply(changes)
        } catch {
            storageFailed(error)
            throw RPCError.storageFailure("\(error)")
        }
        storageWorked()
    }

    func nextRequestSequence() -> Int64 {
        lastRequestSequence += 1
        return lastRequestSequence
    }

    func makeInstanceID() -> InstanceID {
        while true {
            let id = String(format: "%08x", UInt32.random(in: 0...UInt32.max))
            if instances[id] == nil { return id }
        }
    }

    /// A one-line summary for systemd's STATUS=.
    public func statusLine() -> String {
        Self.statusLine(currentStatusInputs(next: nextWake()))
    }
}

extension Engine {
    /// Brings every instance's configuration up to date with its descriptor (at start and on
    /// SIGHUP): what providers receive always fits the schema they declare. Changed ones are
    /// stored in the background; they derive from the descriptor, so nothing is lost if not.
    func normalizeConfigurations() {
        var changed: [StoreChange] = []
        for (id, instance) in instances {
            guard let schema = catalog[instance.kind]?.intent else { continue }
            let normalized = schema.normalized(instance.configuration, family: instance.family)
            guard normalized != instance.configuration else { continue }
            var updated = instance
            updated.configuration = normalized
            instances[id] = updated
            changed.append(.putInstance(updated))
            logger.notice("configuration updated to its descriptor", metadata: ["instance": "\(id)", "kind": "\(instance.kind)"])
        }
        guard !changed.isEmpty else { return }
        let store = self.store
        Task { try? await store.apply(changed) }
    }
}
