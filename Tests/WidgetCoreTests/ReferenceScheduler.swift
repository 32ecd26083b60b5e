import Foundation

@testable import WidgetCore

// The scheduler over 4-ary heaps, as it was before the timing wheel, kept as the model the
// differential test (SchedulerDifferentialTests) runs against `ReloadScheduler`: same public
// behaviour, simpler structure. Only the type's name and access levels differ from that version.

/// One earliest-deadline structure for every instance: reload due dates (policy, requests,
/// budget deferrals) and entry-change dates. No timer or task per timeline: the owner asks
/// for `nextDeadline()`, sleeps until then, and calls `popDue(now:)`, which answers with the
/// events to carry out. Pure: time is always passed in.
///
/// Instances live in dense slots, found by id once per call. Each slot has at most one node in
/// the due heap per purpose (its next entry change and its next reload, moved in place when
/// they change) and at most one in its provider's heap of pending reloads, so the heaps never
/// hold stale entries and their size is bounded by the number of instances.
struct ReferenceScheduler: Sendable {
    private(set) var budget: ReloadBudget
    /// Coalescing window W (docs/overview.md).
    var coalescingWindow: TimeInterval

    private var slots: [Slot] = []
    private var slotOfID: [InstanceID: Int32] = [:]
    private var freeSlots: [Int32] = []
    /// Handle 2·slot is the slot's next entry change, 2·slot + 1 its next reload (at the date
    /// the budget lets it run).
    private var due = SlotHeap()
    private var duePositions: [Int32] = []
    /// Per provider, the slots with a reload pending by the date they want it: a launch finds
    /// its merge partners, those wanted within W, without a scan. Positions by slot (a slot
    /// waits in at most one provider's heap).
    private var providers: [ProviderQueue] = []
    private var providerOfKey: [String: Int32] = [:]
    private var pendingPositions: [Int32] = []
    private var kindNames: [String] = []
    /// The slots of each kind, for `reloadTimelines(ofKind:)`: 4 bytes an instance, where a set
    /// of ids per kind cost about 33 at a million. A slot knows its place, so removal swaps.
    private var slotsOfKind: [[Int32]] = []
    private var kindOfName: [String: Int32] = [:]
    /// Orders nodes set at equal dates; renumbered before it would reach `sequenceLimit`.
    private var sequence: UInt32 = 0
    var sequenceLimit: UInt32 = reloadTie - 1

    init(budget: ReloadBudget, coalescingWindow: TimeInterval) {
        self.budget = budget
        self.coalescingWindow = coalescingWindow
    }

    // MARK: Instances

    /// Registers an instance; `providerKey` groups instances that share launches. An empty
    /// key means the kind has no provider (push-only, or its descriptor is gone): its due
    /// dates are kept but nothing is launched or listed until it gets one. Registering an id
    /// again starts it afresh but keeps its budget history.
    mutating func add(_ id: InstanceID, kind: String, providerKey: String) {
        let slot = Slot(id: id, kind: internKind(kind), provider: internProvider(providerKey))
        if let existing = slotOfID[id] {
            let history = slots[Int(existing)].history
            unlink(existing)
            slots[Int(existing)] = slot
            slots[Int(existing)].history = history
            linkKind(existing)
            return
        }
        let index: Int32
        if let free = freeSlots.popLast() {
            index = free
            slots[Int(index)] = slot
        } else {
            index = Int32(slots.count)
            slots.append(slot)
            duePositions.append(contentsOf: [SlotHeap.absent, SlotHeap.absent])
            pendingPositions.append(SlotHeap.absent)
        }
        slotOfID[id] = index
        linkKind(index)
    }

    /// Makes room for `count` instances at once (a restart knows how many it will add), so the
    /// slot arrays are not grown by doubling and left up to twice the size they need.
    mutating func reserveCapacity(_ count: Int) {
        slots.reserveCapacity(count)
        slotOfID.reserveCapacity(count)
        duePositions.reserveCapacity(2 * count)
        pendingPositions.reserveCapacity(count)
    }

    mutating func remove(_ id: InstanceID) {
        guard let index = slotOfID.removeValue(forKey: id) else { return }
        unlink(index)
        slots[Int(index)] = Slot.free
        freeSlots.append(index)
    }

    /// After descriptors are reloaded a kind may have a different provider.
    mutating func updateProvider(_ id: InstanceID, providerKey: String) {
        guard let index = slotOfID[id] else { return }
        let provider = internProvider(providerKey)
        guard slots[Int(index)].provider != provider else { return }
        removePending(index)
        slots[Int(index)].provider = provider
        reschedule(index)
    }

    func contains(_ id: InstanceID) -> Bool { slotOfID[id] != nil }

    /// The instances of a kind, in no particular order.
    func instances(ofKind kind: String) -> [InstanceID] {
        guard let index = kindOfName[kind] else { return [] }
        return slotsOfKind[Int(index)].map { slots[Int($0)].id }
    }

    mutating func updateBudget(_ budget: ReloadBudget) {
        self.budget = budget
        for index in slots.indices where slots[index].inUse { reschedule(Int32(index)) }
    }

    mutating func setHiddenSince(_ id: InstanceID, _ hiddenSince: Date?) {
        guard let index = slotOfID[id], slots[Int(index)].hiddenSince != hiddenSince else { return }
        slots[Int(index)].hiddenSince = hiddenSince
        reschedule(index)
    }

    func budgetLimit(_ id: InstanceID, now: Date) -> Int {
        budget.limit(shown: slotOfID[id].flatMap { slots[Int($0)].hiddenSince }, now: now)
    }

    mutating func restoreHistory(_ id: InstanceID, dates: [Date]) {
        guard let index = slotOfID[id] else { return }
        slots[Int(index)].history = BudgetHistory(dates)
        reschedule(index)
    }

    // MARK: Budget

    /// The instance's budgeted reloads in the last 24 hours (empty for an unknown id).
    func budgetHistory(_ id: InstanceID) -> BudgetHistory {
        slotOfID[id].map { slots[Int($0)].history } ?? BudgetHistory()
    }

    /// Budgeted reloads of the instance in the 24 hours before `now`.
    func budgetUsed(_ id: InstanceID, now: Date) -> Int {
        budget.used(budgetHistory(id), now: now)
    }

    /// The instance's last budgeted reload.
    func lastBudgetedReload(_ id: InstanceID) -> Date? {
        budgetHistory(id).last
    }

    // MARK: Due dates

    /// Replaces the policy due date after a timeline arrives (nil: `never`).
    mutating func setPolicyDue(_ id: InstanceID, _ date: Date?) {
        guard let index = slotOfID[id] else { return }
        slots[Int(index)].policyDue = date
        reschedule(index)
    }

    /// Asks for a reload wanted at `wanted`. Requests collapse: the one that can run first
    /// is kept, an exempt one preferred at equal times.
    mutating func request(_ id: InstanceID, reason: ReloadReason, at wanted: Date) {
        guard let index = slotOfID[id] else { return }
        let kept = merged(slots[Int(index)], reason: reason, at: wanted)
        slots[Int(index)].request = Request(reason: kept.reason, wanted: kept.wanted)
        reschedule(index)
    }

    /// What `request` would keep for this instance, without changing anything: the caller
    /// persists it before the request takes effect.
    func mergedRequest(_ id: InstanceID, reason: ReloadReason, at wanted: Date) -> (reason: ReloadReason, wanted: Date) {
        guard let index = slotOfID[id] else { return (reason, wanted) }
        return merged(slots[Int(index)], reason: reason, at: wanted)
    }

    /// The request waiting for a launch, if any (a launch takes it when it starts).
    func pendingRequest(_ id: InstanceID) -> (reason: ReloadReason, wanted: Date)? {
        slotOfID[id].flatMap { slots[Int($0)].request }.map { ($0.reason, $0.wanted) }
    }

    /// The next date the shown entry changes (nil: none).
    mutating func setNextEntryChange(_ id: InstanceID, _ date: Date?) {
        guard let index = slotOfID[id] else { return }
        let handle = 2 * index
        if let date {
            due.set(handle, date: date.timeIntervalSinceReferenceDate, tie: nextSequence(), positions: &duePositions)
        } else {
            due.remove(handle, positions: &duePositions)
        }
    }

    /// A launched reload finished with a new timeline whose policy wants `policyDue`.
    mutating func completed(_ id: InstanceID, policyDue: Date?) {
        guard let index = slotOfID[id] else { return }
        slots[Int(index)].inFlight = false
        slots[Int(index)].policyDue = policyDue
        reschedule(index)
    }

    /// A launched reload failed: the old timeline stays and another attempt is wanted at
    /// `retryAt`, under the budget. The old policy date still stands.
    mutating func failed(_ id: InstanceID, policyDue: Date?, retryAt: Date) {
        guard let index = slotOfID[id] else { return }
        slots[Int(index)].inFlight = false
        slots[Int(index)].policyDue = policyDue
        request(id, reason: .retry, at: retryAt)
    }

    // MARK: Clock steps

    /// The wall clock went back from `old` to `now` (a `clock set` to an earlier instant, or a
    /// real-clock step seen by the daemon). Dates are wall-clock instants, so due dates after
    /// `now` stay where they are, with two exceptions that would otherwise hold a widget back
    /// by the size of the step:
    /// - budgeted reloads recorded after `now` count as made at `now`: they still count against
    ///   the 24 hours (stepping back never refunds budget), and the minimum spacing runs from
    ///   `now`, not from a date that has not come yet;
    /// - a reload that was due before the step (wanted in `(now, old]`) and has not run (the
    ///   budget deferred it) stays due: it runs once, as soon as the budget allows.
    /// Nothing that already ran becomes due again: a launch clears its due dates.
    mutating func clockSteppedBack(from old: Date, to now: Date) {
        for index in slots.indices where slots[index].inUse {
            slots[index].history.clamp(notAfter: now)
            if let request = slots[index].request, request.wanted > now, request.wanted <= old {
                slots[index].request = Request(reason: request.reason, wanted: now)
            }
            if let due = slots[index].policyDue, due > now, due <= old {
                slots[index].policyDue = now
            }
            reschedule(Int32(index))
        }
    }

    // MARK: Running

    /// The earliest instant at which something is due, if anything is.
    func nextDeadline() -> Date? {
        due.min.map { Date(timeIntervalSinceReferenceDate: $0.date) }
    }

    /// Everything due at or before `now`, in date order: entry changes, and reload batches
    /// (each instance due now with every same-provider instance due within W, one launch).
    /// Budgeted reloads are charged to the budget here, at launch. At equal dates entry
    /// changes come before reloads, so an `atEnd` reload sees its last entry become current
    /// first; then the order in which the dates were set.
    mutating func popDue(now: Date) -> [SchedulerEvent] {
        var events: [SchedulerEvent] = []
        let limit = now.timeIntervalSinceReferenceDate
        while let top = due.min, top.date <= limit {
            let index = top.handle >> 1
            if top.handle & 1 == 0 {
                due.remove(top.handle, positions: &duePositions)
                events.append(.entryChange(slots[Int(index)].id, Date(timeIntervalSinceReferenceDate: top.date), .none))
                continue
            }
            // Every change to a slot moves its node, so the node's date is its effective date
            // and the reload can run now.
            guard let pending = pendingReload(slots[Int(index)]), pending.effective <= now else {
                assertionFailure("due heap out of step with slot \(index)")
                reschedule(index)
                continue
            }
            events.append(.reload(launch(startingWith: index, pending: pending, now: now)))
        }
        return events
    }

    /// Pending reloads, earliest first, for `widgetctl schedule`.
    func pendingReloads() -> [ScheduledReload] {
        slots.compactMap { slot -> ScheduledReload? in
            guard slot.inUse else { return nil }
            return scheduled(slot)
        }
        .sorted { ($0.due, $0.instance) < ($1.due, $1.instance) }
    }

    /// How many reloads are pending (what `pendingReloads()` lists), without listing them.
    var pendingReloadCount: Int {
        slots.count { $0.inUse && pendingReload($0) != nil }
    }

    func pendingReload(for id: InstanceID) -> ScheduledReload? {
        slotOfID[id].flatMap { scheduled(slots[Int($0)]) }
    }

    func isInFlight(_ id: InstanceID) -> Bool {
        slotOfID[id].map { slots[Int($0)].inFlight } ?? false
    }

    var instanceCount: Int { slotOfID.count }

    /// The number of nodes held in the heaps (for tests that they stay bounded).
    var heldEntries: Int { due.count + providers.reduce(0) { $0 + $1.pending.count } }

    // MARK: Internals

    private mutating func launch(startingWith first: Int32, pending: Pending, now: Date) -> ReloadBatch {
        let provider = slots[Int(first)].provider
        var members = [(slot: first, member: ReloadMember(instance: slots[Int(first)].id, reason: pending.reason, wanted: pending.wanted))]
        // Merge what is wanted within W and that the budget allows now. Those the budget holds
        // back stay where they are for a later launch.
        let horizon = now.addingTimeInterval(coalescingWindow).timeIntervalSinceReferenceDate
        providers[Int(provider)].pending.forEach(through: horizon) { node in
            let slot = slots[Int(node.handle)]
            guard node.handle != first, let candidate = pendingReload(slot), !candidate.held,
                budget.effectiveDate(slot.history, wanted: now, reason: candidate.reason, shown: slot.hiddenSince) <= now
            else { return }
            members.append((node.handle, ReloadMember(instance: slot.id, reason: candidate.reason, wanted: candidate.wanted)))
        }
        members.sort { ($0.member.wanted, $0.member.instance) < ($1.member.wanted, $1.member.instance) }
        for (index, member) in members {
            slots[Int(index)].inFlight = true
            slots[Int(index)].request = nil
            slots[Int(index)].policyDue = nil
            due.remove(2 * index + 1, positions: &duePositions)
            removePending(index)
            if budget.applies(to: member.reason) {
                slots[Int(index)].history.record(now)
            }
        }
        return ReloadBatch(providerKey: providers[Int(provider)].key, date: now, members: members.map(\.member))
    }

    private func merged(_ slot: Slot, reason: ReloadReason, at wanted: Date) -> (reason: ReloadReason, wanted: Date) {
        guard let old = slot.request else { return (reason, wanted) }
        let oldDate = budget.effectiveDate(slot.history, wanted: old.wanted, reason: old.reason, shown: slot.hiddenSince)
        let newDate = budget.effectiveDate(slot.history, wanted: wanted, reason: reason, shown: slot.hiddenSince)
        if newDate < oldDate || (newDate == oldDate && reason.isExempt && !old.reason.isExempt) {
            return (reason, wanted)
        }
        return (old.reason, old.wanted)
    }

    private func pendingReload(_ slot: Slot) -> Pending? {
        guard slot.provider != Slot.noProvider else { return nil }
        var best: Pending?
        let shown = slot.hiddenSince
        if let request = slot.request {
            best = Pending(
                reason: request.reason, wanted: request.wanted,
                effective: budget.effectiveDate(slot.history, wanted: request.wanted, reason: request.reason, shown: shown))
        }
        if let due = slot.policyDue {
            let policy = Pending(
                reason: .policy, wanted: due,
                effective: budget.effectiveDate(slot.history, wanted: due, reason: .policy, shown: shown))
            if best == nil || policy.effective < best!.effective { best = policy }
        }
        if let pending = best, budget.holds(pending.reason, at: pending.effective, shown: shown) { best?.held = true }
        return best
    }

    private func scheduled(_ slot: Slot) -> ScheduledReload? {
        guard let pending = pendingReload(slot) else { return nil }
        return ScheduledReload(
            instance: slot.id, kind: kindNames[Int(slot.kind)], due: pending.effective, wanted: pending.wanted,
            reason: pending.held ? .hidden : pending.reason, inFlight: slot.inFlight,
            heldReason: pending.held ? pending.reason : nil)
    }

    /// Puts the slot's reload node where its pending reload now is, or takes it out.
    private mutating func reschedule(_ index: Int32) {
        let slot = slots[Int(index)]
        guard !slot.inFlight, let pending = pendingReload(slot), !pending.held else {
            due.remove(2 * index + 1, positions: &duePositions)
            removePending(index)
            return
        }
        let order = nextSequence()
        due.set(
            2 * index + 1, date: pending.effective.timeIntervalSinceReferenceDate, tie: Self.reloadTie | order,
            positions: &duePositions)
        providers[Int(slot.provider)].pending.set(
            index, date: pending.wanted.timeIntervalSinceReferenceDate, tie: order, positions: &pendingPositions)
    }

    private mutating func removePending(_ index: Int32) {
        let provider = slots[Int(index)].provider
        guard provider != Slot.noProvider else { return }
        providers[Int(provider)].pending.remove(index, positions: &pendingPositions)
    }

    /// Takes the slot out of every heap.
    private mutating func unlink(_ index: Int32) {
        due.remove(2 * index, positions: &duePositions)
        due.remove(2 * index + 1, positions: &duePositions)
        removePending(index)
        let kind = Int(slots[Int(index)].kind)
        let position = Int(slots[Int(index)].kindPosition)
        let last = slotsOfKind[kind].removeLast()
        if position < slotsOfKind[kind].count {
            slotsOfKind[kind][position] = last
            slots[Int(last)].kindPosition = Int32(position)
        }
    }

    private mutating func linkKind(_ index: Int32) {
        let kind = Int(slots[Int(index)].kind)
        slots[Int(index)].kindPosition = Int32(slotsOfKind[kind].count)
        slotsOfKind[kind].append(index)
    }

    private mutating func internProvider(_ key: String) -> Int32 {
        guard !key.isEmpty else { return Slot.noProvider }
        if let index = providerOfKey[key] { return index }
        let index = Int32(providers.count)
        providers.append(ProviderQueue(key: key))
        providerOfKey[key] = index
        return index
    }

    private mutating func internKind(_ kind: String) -> Int32 {
        if let index = kindOfName[kind] { return index }
        let index = Int32(kindNames.count)
        kindNames.append(kind)
        slotsOfKind.append([])
        kindOfName[kind] = index
        return index
    }

    private mutating func nextSequence() -> UInt32 {
        if sequence >= sequenceLimit { renumber() }
        sequence += 1
        return sequence
    }

    /// Ties are 31 bits so that a heap node fits in 16 bytes. Before the sequence runs out,
    /// the ties in use (at most three per instance) are replaced by their ranks, which keeps
    /// every order and frees the rest of the range: O(n log n) once per two billion changes.
    private mutating func renumber() {
        var used = due.nodes.map { $0.tie & ~Self.reloadTie }
        for provider in providers { used += provider.pending.nodes.map(\.tie) }
        used = Array(Set(used)).sorted()
        var rank: [UInt32: UInt32] = [:]
        rank.reserveCapacity(used.count)
        for (index, tie) in used.enumerated() { rank[tie] = UInt32(index + 1) }
        due.mapTies { ($0 & Self.reloadTie) | rank[$0 & ~Self.reloadTie]! }
        for index in providers.indices { providers[index].pending.mapTies { rank[$0]! } }
        sequence = UInt32(used.count)
    }

    /// Reload nodes sort after entry-change nodes at the same date.
    private static let reloadTie: UInt32 = 1 << 31

    /// The optional dates are stored as plain numbers with NaN for "none" (no parsed date is
    /// NaN) and the request's reason as a byte, so that a slot stays small.
    private struct Slot: Sendable {
        static let noProvider: Int32 = -1
        static let free = Slot(id: "", kind: 0, provider: noProvider, inUse: false)

        var id: InstanceID
        var history = BudgetHistory()
        var kind: Int32
        var provider: Int32
        private var policyDueValue = Double.nan
        private var requestWanted = Double.nan
        /// Where the slot is in its kind's list.
        var kindPosition: Int32 = 0
        private var requestReason: UInt8 = 0
        var inUse = true
        var inFlight = false
        var hiddenSince: Date?

        init(id: InstanceID, kind: Int32, provider: Int32, inUse: Bool = true) {
            self.id = id
            self.kind = kind
            self.provider = provider
            self.inUse = inUse
        }

        var policyDue: Date? {
            get { policyDueValue.isNaN ? nil : Date(timeIntervalSinceReferenceDate: policyDueValue) }
            set { policyDueValue = newValue?.timeIntervalSinceReferenceDate ?? .nan }
        }

        var request: Request? {
            get {
                guard !requestWanted.isNaN else { return nil }
                return Request(reason: Self.reasons[Int(requestReason)], wanted: Date(timeIntervalSinceReferenceDate: requestWanted))
            }
            set {
                requestWanted = newValue?.wanted.timeIntervalSinceReferenceDate ?? .nan
                requestReason = newValue.map { request in UInt8(Self.reasons.firstIndex(of: request.reason)!) } ?? 0
            }
        }

        private static let reasons = ReloadReason.allCases
    }

    private struct ProviderQueue: Sendable {
        var key: String
        var pending = SlotHeap()
    }

    private struct Request: Sendable {
        var reason: ReloadReason
        var wanted: Date
    }

    private struct Pending {
        var reason: ReloadReason
        var wanted: Date
        var effective: Date
        var held = false
    }
}
