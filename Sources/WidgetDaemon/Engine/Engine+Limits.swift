import Foundation
import WidgetCore
import WidgetProtocol
import WidgetStore

/// What is being stored and not yet in memory. A request checks the count in memory plus
/// these, so two requests that wait on the store together cannot both take the last place.
struct LimitReservations {
    var instances = 0
    var stacks = 0
    var donations = 0
}

extension Engine {
    var limits: LimitSettings { settings.limits }

    /// Refuses one more instance beyond `max-instances`.
    func checkRoomForInstance() throws(RPCError) {
        guard instances.count + reserved.instances < limits.maxInstances else {
            throw .limitExceeded(limits.instancesExceeded())
        }
    }

    /// Refuses one more stack beyond `max-stacks`.
    func checkRoomForStack() throws(RPCError) {
        guard stacks.count + reserved.stacks < limits.maxStacks else { throw .limitExceeded(limits.stacksExceeded()) }
    }

    /// Refuses a stack that would hold more than `max-stack-size` instances.
    func checkStackSize(_ name: String, holding count: Int) throws(RPCError) {
        guard count <= limits.maxStackSize else { throw .limitExceeded(limits.stackSizeExceeded(name)) }
    }

    /// Refuses a pushed timeline over `max-entries` or `max-entry-bytes`.
    func checkTimeline(_ timeline: Timeline) throws(RPCError) {
        if let exceeded = limits.check(timeline) { throw .limitExceeded(exceeded) }
    }

    /// Commits `changes` while counting one more of `slot` against its limit. The caller puts
    /// the new item in memory right after, in the same turn of the actor, so nothing else
    /// sees it counted twice or not at all.
    func commit(_ changes: [StoreChange], holding slot: WritableKeyPath<LimitReservations, Int>) async throws(RPCError) {
        reserved[keyPath: slot] += 1
        defer { reserved[keyPath: slot] -= 1 }
        try await commit(changes)
    }

    /// Puts a stored donation in memory, which is kept sorted by date (as the store orders
    /// them), and drops the oldest beyond `max-donations`, as its transaction did on disk.
    func retain(_ donation: LocalDonation) {
        let date = donation.donation.date
        // After every donation of the same date: of equal dates the last recorded is newest.
        var low = donations.startIndex
        var high = donations.endIndex
        while low < high {
            let middle = (low + high) / 2
            if donations[middle].donation.date <= date { low = middle + 1 } else { high = middle }
        }
        donations.insert(donation, at: low)
        trimDonations()
    }

    private func trimDonations() {
        let excess = donations.count - limits.maxDonations
        guard excess > 0 else { return }
        let types = Set(donations.prefix(excess).map(\.donation.intentType))
        donations.removeFirst(excess)
        donationGeneration += 1
        // Their influence goes at once, as a deletion's does: stacks with a kind of that intent.
        for (name, stack) in stacks where stack.instances.contains(where: { id in
            instances[id].flatMap { catalog[$0.kind]?.intent?.type }.map(types.contains) ?? false
        }) {
            dirtyStacks.insert(name)
        }
    }

    /// At start and on SIGHUP: a state stored under larger limits (or before donations and
    /// the log had any) is trimmed to the current ones, in memory at once and on disk in the
    /// background, like `normalizeConfigurations` (the store converges at the next write).
    func applyRetention() {
        trimDonations()
        let store = self.store
        let keep = (donations: limits.maxDonations, decisions: limits.maxLogRows)
        Task { try? await store.apply([.pruneDonations(keep: keep.donations), .pruneDecisions(keep: keep.decisions)]) }
    }

    /// A state that holds more than a limit allows (the limit was lowered) is loaded whole;
    /// only new instances and stacks are refused. Said once, at start or on SIGHUP.
    func warnIfOverLimits() {
        if instances.count > limits.maxInstances {
            logger.warning(
                "more instances stored than max-instances allows; adding is refused until some are removed",
                metadata: ["instances": "\(instances.count)", "max": "\(limits.maxInstances)"])
        }
        if stacks.count > limits.maxStacks {
            logger.warning(
                "more stacks stored than max-stacks allows; creating is refused until some are removed",
                metadata: ["stacks": "\(stacks.count)", "max": "\(limits.maxStacks)"])
        }
    }
}
