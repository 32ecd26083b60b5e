import Foundation
import HeapModule

/// One earliest-deadline structure for every instance: reload due dates (policy, requests,
/// budget deferrals) and entry-change dates. No timer or task per timeline: the owner asks
/// for `nextDeadline()`, sleeps until then, and calls `popDue(now:)`, which answers with the
/// events to carry out. Pure: time is always passed in.
public struct ReloadScheduler: Sendable {
    public private(set) var budget: ReloadBudget
    /// Coalescing window W (semantics.md, Reload policies 4).
    public var coalescingWindow: TimeInterval

    private var slots: [InstanceID: Slot] = [:]
    private var heap = Heap<Wakeup>()
    private var sequence: UInt64 = 0
    /// Pending reloads by provider, earliest wanted first, to find merge partners without a
    /// scan: a launch looks only at those wanted within W. Like the main heap, entries are
    /// invalidated by generation rather than removed.
    private var pendingByProvider: [String: Heap<Candidate>] = [:]
    private var candidateCount = 0

    public init(budget: ReloadBudget, coalescingWindow: TimeInterval) {
        self.budget = budget
        self.coalescingWindow = coalescingWindow
    }

    // MARK: Instances

    /// Registers an instance; `providerKey` groups instances that share launches. An empty
    /// key means the kind has no provider (push-only, or its descriptor is gone): its due
    /// dates are kept but nothing is launched or listed until it gets one.
    public mutating func add(_ id: InstanceID, kind: String, providerKey: String) {
        // Generations come from one sequence for all slots, so wake-ups left in the heap by a
        // removed instance never match a new slot with the same id.
        var slot = Slot(kind: kind, providerKey: providerKey)
        slot.reloadGeneration = nextSequence()
        slot.entryGeneration = nextSequence()
        slots[id] = slot
    }

    public mutating func remove(_ id: InstanceID) {
        guard slots.removeValue(forKey: id) != nil else { return }
        budget.forget(id)
    }

    /// After descriptors are reloaded a kind may have a different provider.
    public mutating func updateProvider(_ id: InstanceID, providerKey: String) {
        guard var slot = slots[id], slot.providerKey != providerKey else { return }
        slot.providerKey = providerKey
        slots[id] = slot
        reschedule(id)
    }

    public func contains(_ id: InstanceID) -> Bool { slots[id] != nil }

    public mutating func updateBudget(limit: Int, spacing: TimeInterval, enabled: Bool) {
        budget.limit = limit
        budget.spacing = spacing
        budget.enabled = enabled
        for id in slots.keys { reschedule(id) }
    }

    public mutating func restoreHistory(_ id: InstanceID, dates: [Date]) {
        budget.restore(id, dates: dates)
        reschedule(id)
    }

    // MARK: Due dates

    /// Replaces the policy due date after a timeline arrives (nil: `never`).
    public mutating func setPolicyDue(_ id: InstanceID, _ date: Date?) {
        guard var slot = slots[id] else { return }
        slot.policyDue = date
        slots[id] = slot
        reschedule(id)
    }

    /// Asks for a reload wanted at `wanted`. Requests collapse: the one that can run first
    /// is kept, an exempt one preferred at equal times.
    public mutating func request(_ id: InstanceID, reason: ReloadReason, at wanted: Date) {
        guard var slot = slots[id] else { return }
        let kept = mergedRequest(id, reason: reason, at: wanted)
        slot.request = Request(reason: kept.reason, wanted: kept.wanted)
        slots[id] = slot
        reschedule(id)
    }

    /// What `request` would keep for this instance, without changing anything: the caller
    /// persists it before the request takes effect.
    public func mergedRequest(_ id: InstanceID, reason: ReloadReason, at wanted: Date) -> (reason: ReloadReason, wanted: Date) {
        guard let old = slots[id]?.request else { return (reason, wanted) }
        let oldDate = budget.effectiveDate(id, wanted: old.wanted, reason: old.reason)
        let newDate = budget.effectiveDate(id, wanted: wanted, reason: reason)
        if newDate < oldDate || (newDate == oldDate && reason.isExempt && !old.reason.isExempt) {
            return (reason, wanted)
        }
        return (old.reason, old.wanted)
    }

    /// The request waiting for a launch, if any (a launch takes it when it starts).
    public func pendingRequest(_ id: InstanceID) -> (reason: ReloadReason, wanted: Date)? {
        slots[id]?.request.map { ($0.reason, $0.wanted) }
    }

    /// The next date the shown entry changes (nil: none).
    public mutating func setNextEntryChange(_ id: InstanceID, _ date: Date?) {
        guard var slot = slots[id] else { return }
        slot.entryGeneration = nextSequence()
        slot.nextEntryChange = date
        slots[id] = slot
        if let date {
            push(Wakeup(date: date, order: 0, sequence: nextSequence(), instance: id, generation: slot.entryGeneration))
        }
    }

    /// A launched reload finished with a new timeline whose policy wants `policyDue`.
    public mutating func completed(_ id: InstanceID, policyDue: Date?) {
        guard var slot = slots[id] else { return }
        slot.inFlight = false
        slot.policyDue = policyDue
        slots[id] = slot
        reschedule(id)
    }

    /// A launched reload failed: the old timeline stays and another attempt is wanted at
    /// `retryAt`, under the budget. The old policy date still stands.
    public mutating func failed(_ id: InstanceID, policyDue: Date?, retryAt: Date) {
        guard var slot = slots[id] else { return }
        slot.inFlight = false
        slot.policyDue = policyDue
        slots[id] = slot
        request(id, reason: .retry, at: retryAt)
    }

    // MARK: Running

    /// The earliest instant at which something is due, if anything is.
    public mutating func nextDeadline() -> Date? {
        while let top = heap.min {
            if isLive(top) { return top.date }
            _ = heap.popMin()
        }
        return nil
    }

    /// Everything due at or before `now`, in date order: entry changes, and reload batches
    /// (each instance due now with every same-provider instance due within W, one launch).
    /// Budgeted reloads are charged to the budget here, at launch.
    public mutating func popDue(now: Date) -> [SchedulerEvent] {
        var events: [SchedulerEvent] = []
        while let top = heap.min, top.date <= now {
            _ = heap.popMin()
            guard isLive(top), let slot = slots[top.instance] else { continue }
            if top.order == 0 {
                events.append(.entryChange(top.instance, top.date))
                continue
            }
            guard let pending = pendingReload(top.instance, slot) else { continue }
            if pending.effective > now {
                // The budget moved since this wake-up was pushed.
                reschedule(top.instance)
                continue
            }
            events.append(.reload(launch(startingWith: top.instance, pending: pending, now: now)))
        }
        return events
    }

    /// Pending reloads, earliest first, for `widgetctl schedule`.
    public func pendingReloads() -> [ScheduledReload] {
        slots.compactMap { id, slot -> ScheduledReload? in
            guard let pending = pendingReload(id, slot) else { return nil }
            return ScheduledReload(
                instance: id, kind: slot.kind, due: pending.effective, wanted: pending.wanted,
                reason: pending.reason, inFlight: slot.inFlight)
        }
        .sorted { ($0.due, $0.instance) < ($1.due, $1.instance) }
    }

    public func pendingReload(for id: InstanceID) -> ScheduledReload? {
        guard let slot = slots[id], let pending = pendingReload(id, slot) else { return nil }
        return ScheduledReload(
            instance: id, kind: slot.kind, due: pending.effective, wanted: pending.wanted,
            reason: pending.reason, inFlight: slot.inFlight)
    }

    public func isInFlight(_ id: InstanceID) -> Bool { slots[id]?.inFlight ?? false }

    public var instanceCount: Int { slots.count }

    // MARK: Internals

    private mutating func launch(startingWith first: InstanceID, pending: Pending, now: Date) -> ReloadBatch {
        let key = slots[first]!.providerKey
        var members = [ReloadMember(instance: first, reason: pending.reason, wanted: pending.wanted)]
        let horizon = now.addingTimeInterval(coalescingWindow)
        // Merge what is wanted within W and that the budget allows now. Those the budget holds
        // back go back in for a later launch.
        var partners = pendingByProvider.removeValue(forKey: key) ?? Heap()
        let before = partners.count
        var heldBack: [Candidate] = []
        while let top = partners.min, top.wanted <= horizon {
            _ = partners.popMin()
            guard top.instance != first, let slot = slots[top.instance], slot.reloadGeneration == top.generation,
                !slot.inFlight, let candidate = pendingReload(top.instance, slot)
            else { continue }
            guard budget.effectiveDate(top.instance, wanted: now, reason: candidate.reason) <= now else {
                heldBack.append(top)
                continue
            }
            members.append(ReloadMember(instance: top.instance, reason: candidate.reason, wanted: candidate.wanted))
        }
        for candidate in heldBack { partners.insert(candidate) }
        candidateCount -= before - partners.count
        if !partners.isEmpty { pendingByProvider[key] = partners }
        members.sort { ($0.wanted, $0.instance) < ($1.wanted, $1.instance) }
        for member in members {
            var slot = slots[member.instance]!
            slot.inFlight = true
            slot.request = nil
            slot.policyDue = nil
            slot.reloadGeneration = nextSequence()
            slots[member.instance] = slot
            if budget.applies(to: member.reason) {
                budget.record(member.instance, at: now)
            }
        }
        return ReloadBatch(providerKey: key, date: now, members: members)
    }

    private func pendingReload(_ id: InstanceID, _ slot: Slot) -> Pending? {
        guard !slot.providerKey.isEmpty else { return nil }
        var best: Pending?
        if let request = slot.request {
            best = Pending(
                reason: request.reason, wanted: request.wanted,
                effective: budget.effectiveDate(id, wanted: request.wanted, reason: request.reason))
        }
        if let due = slot.policyDue {
            let policy = Pending(
                reason: .policy, wanted: due, effective: budget.effectiveDate(id, wanted: due, reason: .policy))
            if best == nil || policy.effective < best!.effective { best = policy }
        }
        return best
    }

    private mutating func reschedule(_ id: InstanceID) {
        guard var slot = slots[id] else { return }
        slot.reloadGeneration = nextSequence()
        slots[id] = slot
        guard let pending = pendingReload(id, slot), !slot.inFlight else { return }
        pendingByProvider[slot.providerKey, default: Heap()].insert(
            Candidate(wanted: pending.wanted, sequence: nextSequence(), instance: id, generation: slot.reloadGeneration))
        candidateCount += 1
        if candidateCount > compactionThreshold { compactCandidates() }
        push(Wakeup(date: pending.effective, order: 1, sequence: nextSequence(), instance: id, generation: slot.reloadGeneration))
    }

    private func isLive(_ wakeup: Wakeup) -> Bool {
        guard let slot = slots[wakeup.instance] else { return false }
        if wakeup.order == 0 { return slot.entryGeneration == wakeup.generation }
        return slot.reloadGeneration == wakeup.generation && !slot.inFlight
    }

    private mutating func push(_ wakeup: Wakeup) {
        heap.insert(wakeup)
        if heap.count > compactionThreshold {
            heap = Heap(heap.unordered.filter(isLive))
        }
    }

    /// Superseded entries stay in the heaps until they surface. An instance rescheduled often
    /// (a timeline pushed every minute) would pile them up, so past twice the live maximum
    /// (two wake-ups per instance) the heaps are rebuilt from their live entries: O(n), at most
    /// once per n pushes.
    private var compactionThreshold: Int { 4 * slots.count + 1024 }

    private mutating func compactCandidates() {
        var total = 0
        for key in Array(pendingByProvider.keys) {
            let live = pendingByProvider[key]!.unordered.filter { candidate in
                guard let slot = slots[candidate.instance] else { return false }
                return slot.reloadGeneration == candidate.generation && !slot.inFlight && slot.providerKey == key
            }
            pendingByProvider[key] = live.isEmpty ? nil : Heap(live)
            total += live.count
        }
        candidateCount = total
    }

    /// The number of entries held in the heaps, live or superseded (for tests of compaction).
    public var heldEntries: Int { heap.count + candidateCount }

    private mutating func nextSequence() -> UInt64 {
        sequence &+= 1
        return sequence
    }

    /// A possible merge partner: an instance with a reload pending, by the date it wants it.
    private struct Candidate: Comparable, Sendable {
        var wanted: Date
        var sequence: UInt64
        var instance: InstanceID
        var generation: UInt64

        static func < (lhs: Candidate, rhs: Candidate) -> Bool {
            (lhs.wanted, lhs.sequence) < (rhs.wanted, rhs.sequence)
        }

        static func == (lhs: Candidate, rhs: Candidate) -> Bool {
            lhs.wanted == rhs.wanted && lhs.sequence == rhs.sequence
        }
    }

    private struct Slot: Sendable {
        var kind: String
        var providerKey: String
        var policyDue: Date?
        var request: Request?
        var nextEntryChange: Date?
        var inFlight = false
        var reloadGeneration: UInt64 = 0
        var entryGeneration: UInt64 = 0
    }

    private struct Request: Sendable {
        var reason: ReloadReason
        var wanted: Date
    }

    private struct Pending {
        var reason: ReloadReason
        var wanted: Date
        var effective: Date
    }

    /// Heap element. At equal dates entry changes (order 0) come before reloads, so an
    /// `atEnd` reload sees its last entry become current first; then insertion order.
    private struct Wakeup: Comparable, Sendable {
        var date: Date
        var order: UInt8
        var sequence: UInt64
        var instance: InstanceID
        var generation: UInt64

        static func < (lhs: Wakeup, rhs: Wakeup) -> Bool {
            (lhs.date, lhs.order, lhs.sequence) < (rhs.date, rhs.order, rhs.sequence)
        }

        static func == (lhs: Wakeup, rhs: Wakeup) -> Bool {
            lhs.date == rhs.date && lhs.order == rhs.order && lhs.sequence == rhs.sequence
        }
    }
}
