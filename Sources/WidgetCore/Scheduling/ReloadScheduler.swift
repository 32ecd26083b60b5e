import Foundation

/// One earliest-deadline structure for every instance: reload due dates (policy, requests,
/// budget deferrals) and entry-change dates. No timer or task per timeline: the owner asks
/// for `nextDeadline()`, sleeps until then, and calls `popDue(now:in:)`, which answers with the
/// events to carry out. Pure: time is always passed in.
///
/// A slot is what orders one instance's reload and nothing else: which instance, its kind and
/// provider, and its places in the wheels (its next entry change and its next reload). What the
/// reload's date is worked out from (policy date, merged request, budget history, whether a
/// launch runs, since when no host has shown it) is the instance's record's (`ReloadTiming` in
/// `InstanceRecord`): every call that needs it is given the store of records
/// (`ReloadTimingStore`), finds the instance's timing there once, and writes what it changes
/// back there (`change`, the one path), then moves the slot's node. So removing an instance
/// is removing its record and its slot (`DaemonState.removeInstance`), and no fact is kept twice.
/// The calls a step of the daemon makes are also compiled for the book itself, so that a caller
/// in another module (the benchmarks) runs the same code as the state.
///
/// Instances live in dense slots, found by id once per call (`SlotIndex`). Each slot has at most
/// one handle in the due wheel per purpose (its next entry change and its next reload, moved in
/// place when they change) and at most one in its provider's wheel of pending reloads, so the
/// wheels never hold stale entries and their size is bounded by the number of instances.
/// `TimingWheel` makes each of those moves, and taking the earliest, O(1) amortised, where a
/// heap sifts through log n levels, each a cache miss once the schedule outgrows the cache.
public struct ReloadScheduler: Sendable {
    public private(set) var budget: ReloadBudget
    /// Coalescing window W (docs/overview.md).
    public var coalescingWindow: TimeInterval

    private var slots: [Slot] = []
    private var slotIndex = SlotIndex()
    private var freeSlots: [Int32] = []
    /// In the due wheel, handle 3·slot is the slot's next entry change and 3·slot + 1 its next
    /// reload (at the date the budget lets it run).
    private var due = TimingWheel()
    /// Per provider, the slots with a reload pending, as handle 3·slot + 2, by the date it can
    /// run (the date of its due handle): a launch finds its merge partners, those wanted within
    /// W that the budget lets run now, without a scan. Every such partner can run by now + W, so
    /// only those are read. A slot waits in at most one provider's wheel.
    private var providers: [ProviderQueue] = []
    private var providerOfKey: [String: Int32] = [:]
    /// Where each slot's three handles are in the wheels, side by side, so that
    /// moving a slot's reload in the due wheel and in its provider's wheel reads one place.
    private var positions = TimingWheel.Positions()
    private var kindNames: [String] = []
    /// The slots of each kind, for `reloadTimelines(ofKind:)`: a slot number an instance, far
    /// smaller than a set of ids per kind. A slot knows its place, so removal swaps.
    private var slotsOfKind: [[Int32]] = []
    private var kindOfName: [String: Int32] = [:]
    /// Orders nodes set at equal dates; renumbered before it would reach `sequenceLimit`.
    private var sequence: UInt32 = 0
    var sequenceLimit: UInt32 = reloadTie - 1

    public init(budget: ReloadBudget, coalescingWindow: TimeInterval) {
        self.budget = budget
        self.coalescingWindow = coalescingWindow
    }

    // MARK: Instances

    /// Registers an instance whose timing is `facts`; `providerKey` groups instances that share
    /// launches. An empty key means the kind has no provider (push-only, or its descriptor is
    /// gone): its due dates are kept but nothing is launched or listed until it gets one.
    /// Registering an id again starts its slot afresh. `place` is where the store holds its
    /// timing, if the caller knows (tried first when the scheduler next looks for it).
    public mutating func add(_ id: InstanceID, kind: String, providerKey: String, facts: ReloadFacts, place: Int = -1) {
        var slot = Slot(id: id, kind: internKind(kind), provider: internProvider(providerKey))
        slot.place = Int32(truncatingIfNeeded: place)
        let index: Int32
        if let existing = self.slot(of: id) {
            index = existing
            unlink(existing)
            slots[Int(existing)] = slot
        } else if let free = freeSlots.popLast() {
            index = free
            slots[Int(index)] = slot
            slotIndex.insert(id, slot: index)
        } else {
            index = Int32(slots.count)
            slots.append(slot)
            // Grown with the slots, not doubled on its own.
            if positions.items.capacity < 3 * slots.capacity { positions.items.reserveCapacity(3 * slots.capacity) }
            positions.append(absent: 3)
            slotIndex.insert(id, slot: index)
        }
        linkKind(index)
        reschedule(index, facts)
    }

    /// Makes room for `count` instances at once (a restart knows how many it will add), so the
    /// slot arrays are not grown by doubling and left up to twice the size they need.
    public mutating func reserveCapacity(_ count: Int) {
        slots.reserveCapacity(count)
        slotIndex.reserveCapacity(count)
        positions.items.reserveCapacity(3 * count)
    }

    public mutating func remove(_ id: InstanceID) {
        guard let index = slot(of: id) else { return }
        slotIndex.remove(id, slot: index)
        unlink(index)
        slots[Int(index)] = Slot.free
        freeSlots.append(index)
    }

    /// After descriptors are reloaded a kind may have a different provider.
    public mutating func updateProvider(_ id: InstanceID, providerKey: String, in store: some ReloadTimingStore) {
        guard let index = slot(of: id), let place = locate(index, in: store) else { return }
        let provider = internProvider(providerKey)
        guard slots[Int(index)].provider != provider else { return }
        removePending(index)
        slots[Int(index)].provider = provider
        reschedule(index, store.reloadFacts(at: place))
    }

    public func contains(_ id: InstanceID) -> Bool { slot(of: id) != nil }

    /// The instances of a kind, in no particular order.
    public func instances(ofKind kind: String) -> [InstanceID] {
        guard let index = kindOfName[kind] else { return [] }
        return slotsOfKind[Int(index)].map { slots[Int($0)].id }
    }

    public mutating func updateBudget(_ budget: ReloadBudget, in store: some ReloadTimingStore) {
        self.budget = budget
        for index in slots.indices where slots[index].inUse {
            guard let place = locate(Int32(index), in: store) else { continue }
            reschedule(Int32(index), store.reloadFacts(at: place))
        }
    }

    /// Takes `budget`, which differs from the one held only for `ids` (a host began or stopped
    /// showing them while the session is locked): only their reloads move.
    public mutating func updateBudget(_ budget: ReloadBudget, only ids: some Sequence<InstanceID>, in store: some ReloadTimingStore) {
        self.budget = budget
        for id in ids { reschedule(id, in: store) }
    }

    /// Places the instance's reload again after its facts changed outside the scheduler (a
    /// host showed it or stopped showing it: its `hiddenSince`). A reload held while it was
    /// hidden becomes due at once when it is shown.
    public mutating func reschedule(_ id: InstanceID, in store: some ReloadTimingStore) {
        guard let index = slot(of: id), let place = locate(index, in: store) else { return }
        reschedule(index, store.reloadFacts(at: place))
    }

    // MARK: Due dates

    /// Replaces the policy due date after a timeline arrives (nil: `never`).
    @_specialize(exported: true, where Store == InstanceBook)
    public mutating func setPolicyDue<Store: ReloadTimingStore>(_ id: InstanceID, _ date: Date?, in store: inout Store) {
        change(id, in: &store) { timing, _ in timing.policyDue = date }
    }

    /// Asks for a reload wanted at `wanted`. Requests collapse: the one that can run first
    /// is kept, an exempt one preferred at equal times.
    @_specialize(exported: true, where Store == InstanceBook)
    public mutating func request<Store: ReloadTimingStore>(
        _ id: InstanceID, reason: ReloadReason, at wanted: Date, in store: inout Store
    ) {
        let budget = budget
        change(id, in: &store) { timing, hiddenSince in
            timing.request = timing.merged(reason, at: wanted, budget: budget, hiddenSince: hiddenSince)
        }
    }

    /// What `request` would keep for this instance, without changing anything: the caller
    /// persists it before the request takes effect.
    public func mergedRequest(
        _ id: InstanceID, reason: ReloadReason, at wanted: Date, in store: some ReloadTimingStore
    ) -> (reason: ReloadReason, wanted: Date) {
        guard let index = slot(of: id), let place = timingPlace(of: index, in: store) else { return (reason, wanted) }
        let facts = store.reloadFacts(at: place)
        return facts.timing.merged(reason, at: wanted, budget: budget, hiddenSince: facts.hiddenSince)
    }

    /// The next date the shown entry changes (nil: none).
    public mutating func setNextEntryChange(_ id: InstanceID, _ date: Date?) {
        guard let index = slot(of: id) else { return }
        let handle = Self.entryHandle(index)
        if let date {
            due.set(handle, date: date.timeIntervalSinceReferenceDate, tie: nextSequence(), positions: &positions)
        } else {
            due.remove(handle, positions: &positions)
        }
    }

    /// A launched reload finished with a new timeline whose policy wants `policyDue`.
    @_specialize(exported: true, where Store == InstanceBook)
    public mutating func completed<Store: ReloadTimingStore>(_ id: InstanceID, policyDue: Date?, in store: inout Store) {
        change(id, in: &store) { timing, _ in
            timing.inFlight = false
            timing.policyDue = policyDue
        }
    }

    /// A launched reload failed: the old timeline stays and another attempt is wanted at
    /// `retryAt`, under the budget. The old policy date still stands.
    public mutating func failed(_ id: InstanceID, policyDue: Date?, retryAt: Date, in store: inout some ReloadTimingStore) {
        let budget = budget
        change(id, in: &store) { timing, hiddenSince in
            timing.inFlight = false
            timing.policyDue = policyDue
            timing.request = timing.merged(.retry, at: retryAt, budget: budget, hiddenSince: hiddenSince)
        }
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
    public mutating func clockSteppedBack(from old: Date, to now: Date, in store: inout some ReloadTimingStore) {
        for index in slots.indices where slots[index].inUse {
            guard let place = locate(Int32(index), in: store) else { continue }
            reschedule(Int32(index), store.changeTiming(at: place) { timing, _ in timing.clockSteppedBack(from: old, to: now) })
        }
    }

    // MARK: Running

    /// The earliest instant at which something is due, if anything is.
    public func nextDeadline() -> Date? {
        due.min.map { Date(timeIntervalSinceReferenceDate: $0.date) }
    }

    /// Everything due at or before `now`, in date order: entry changes, and reload batches
    /// (each instance due now with every same-provider instance due within W, one launch).
    /// Budgeted reloads are charged to the budget here, at launch. At equal dates entry
    /// changes come before reloads, so an `atEnd` reload sees its last entry become current
    /// first; then the order in which the dates were set.
    @_specialize(exported: true, where Store == InstanceBook)
    public mutating func popDue<Store: ReloadTimingStore>(now: Date, in store: inout Store) -> [SchedulerEvent] {
        var events: [SchedulerEvent] = []
        let limit = now.timeIntervalSinceReferenceDate
        while let top = due.min, top.date <= limit {
            let index = top.handle / 3
            if top.handle == Self.entryHandle(index) {
                due.remove(top.handle, positions: &positions)
                events.append(.entryChange(slots[Int(index)].id, Date(timeIntervalSinceReferenceDate: top.date)))
                continue
            }
            // Every change to a timing moves its node, so the node's date is its effective date
            // and the reload can run now.
            guard let place = locate(index, in: store) else {
                assertionFailure("slot \(index) has no timing in the store")
                due.remove(top.handle, positions: &positions)
                removePending(index)
                continue
            }
            let facts = store.reloadFacts(at: place)
            guard !facts.timing.inFlight, let pending = pendingReload(slots[Int(index)].provider, slots[Int(index)].id, facts), pending.effective <= now else {
                assertionFailure("due wheel out of step with slot \(index)")
                reschedule(index, facts)
                continue
            }
            events.append(.reload(launch(startingWith: index, at: place, pending: pending, now: now, in: &store)))
        }
        return events
    }

    /// Pending reloads, earliest first, for `widgetctl schedule`.
    public func pendingReloads(in store: some ReloadTimingStore) -> [ScheduledReload] {
        slots.compactMap { slot -> ScheduledReload? in
            guard slot.inUse, let place = store.place(of: slot.id, hint: Int(slot.place)) else { return nil }
            return scheduled(slot, store.reloadFacts(at: place))
        }
        .sorted { ($0.due, $0.instance) < ($1.due, $1.instance) }
    }

    /// How many reloads are pending (what `pendingReloads(in:)` lists), without listing them.
    public func pendingReloadCount(in store: some ReloadTimingStore) -> Int {
        slots.count { slot in
            guard slot.inUse, let place = store.place(of: slot.id, hint: Int(slot.place)) else { return false }
            return pendingReload(slot.provider, slot.id, store.reloadFacts(at: place)) != nil
        }
    }

    public func pendingReload(for id: InstanceID, in store: some ReloadTimingStore) -> ScheduledReload? {
        guard let index = slot(of: id), let place = timingPlace(of: index, in: store) else { return nil }
        return scheduled(slots[Int(index)], store.reloadFacts(at: place))
    }

    public var instanceCount: Int { slotIndex.count }

    /// The number of handles held in the wheels (for tests that they stay bounded).
    public var heldEntries: Int { due.count + providers.reduce(0) { $0 + $1.pending.count } }

    /// Where each instance's reload is in the due wheel and in its provider's wheel (for tests
    /// that a slot is where its record's timing puts it).
    func reloadNodes() -> [InstanceID: (due: Date, pending: Date?)] {
        var dates: [InstanceID: (due: Date, pending: Date?)] = [:]
        due.forEach { node in
            guard node.handle % 3 == 1 else { return }
            dates[slots[Int(node.handle / 3)].id] = (Date(timeIntervalSinceReferenceDate: node.date), nil)
        }
        for provider in providers {
            provider.pending.forEach { node in
                let id = slots[Int(node.handle / 3)].id
                dates[id, default: (.distantPast, nil)].pending = Date(timeIntervalSinceReferenceDate: node.date)
            }
        }
        return dates
    }

    // MARK: Internals

    @inline(__always)
    private func slot(of id: InstanceID) -> Int32? {
        slotIndex.slot(of: id) { slots[Int($0)].id == id }
    }

    /// Where the slot's timing is in the store, its last place tried first.
    @inline(__always)
    private func timingPlace(of index: Int32, in store: some ReloadTimingStore) -> Int? {
        store.place(of: slots[Int(index)].id, hint: Int(slots[Int(index)].place))
    }

    /// `timingPlace(of:in:)`, remembered for the next call.
    @inline(__always)
    private mutating func locate(_ index: Int32, in store: some ReloadTimingStore) -> Int? {
        let place = timingPlace(of: index, in: store)
        if let place { slots[Int(index)].place = Int32(truncatingIfNeeded: place) }
        return place
    }

    /// Changes the instance's timing in the store and moves its reload to where the timing
    /// now puts it: the one path every change of a timing takes.
    private mutating func change(
        _ id: InstanceID, in store: inout some ReloadTimingStore, _ body: (inout ReloadTiming, _ hiddenSince: Date?) -> Void
    ) {
        guard let index = slot(of: id), let place = locate(index, in: store) else { return }
        reschedule(index, store.changeTiming(at: place, body))
    }

    private mutating func launch(
        startingWith first: Int32, at place: Int, pending: PendingReload, now: Date, in store: inout some ReloadTimingStore
    ) -> ReloadBatch {
        let provider = slots[Int(first)].provider
        let member = ReloadMember(instance: slots[Int(first)].id, reason: pending.reason, wanted: pending.wanted)
        // Merge what is wanted within W and that the budget allows now. Those the budget holds
        // back stay where they are for a later launch. A partner can run at max(wanted, the
        // budget's next allowed date), both by now + W (or by now, for a negative W): only
        // those are read.
        let horizon = now.addingTimeInterval(coalescingWindow)
        let runsBy = max(horizon, now).timeIntervalSinceReferenceDate
        var partners: [(slot: Int32, place: Int, member: ReloadMember)] = []
        let budget = budget
        providers[Int(provider)].pending.forEach(through: runsBy) { handle in
            let index = handle / 3
            guard index != first, let partnerPlace = timingPlace(of: index, in: store) else { return }
            let facts = store.reloadFacts(at: partnerPlace)
            guard let candidate = pendingReload(slots[Int(index)].provider, slots[Int(index)].id, facts), !candidate.held, candidate.wanted <= horizon,
                budget.effectiveDate(facts.timing.history, wanted: now, reason: candidate.reason, shown: facts.hiddenSince) <= now
            else { return }
            let partner = ReloadMember(instance: slots[Int(index)].id, reason: candidate.reason, wanted: candidate.wanted)
            partners.append((index, partnerPlace, partner))
        }
        take(first, at: place, member.reason, now: now, in: &store)
        // Most launches have no partner: one member, no sorting.
        guard !partners.isEmpty else {
            return ReloadBatch(providerKey: providers[Int(provider)].key, date: now, members: [member])
        }
        partners.append((first, place, member))
        partners.sort { ($0.member.wanted, $0.member.instance) < ($1.member.wanted, $1.member.instance) }
        for (index, partnerPlace, partner) in partners where index != first {
            take(index, at: partnerPlace, partner.reason, now: now, in: &store)
        }
        return ReloadBatch(providerKey: providers[Int(provider)].key, date: now, members: partners.map(\.member))
    }

    /// A launch takes the slot's pending reload: it is in flight until the provider answers.
    private mutating func take(_ index: Int32, at place: Int, _ reason: ReloadReason, now: Date, in store: inout some ReloadTimingStore) {
        let budget = budget
        store.changeTiming(at: place) { timing, _ in timing.take(reason, at: now, budget: budget) }
        slots[Int(index)].place = Int32(truncatingIfNeeded: place)
        due.remove(Self.reloadHandle(index), positions: &positions)
        removePending(index)
    }

    /// The reload the slot would launch next (nil: none, or its kind has no provider).
    @inline(__always)
    private func pendingReload(_ provider: Int32, _ id: InstanceID, _ facts: ReloadFacts) -> PendingReload? {
        guard provider != Slot.noProvider else { return nil }
        return facts.timing.pending(budget: budget, hiddenSince: facts.hiddenSince, instance: id)
    }

    private func scheduled(_ slot: Slot, _ facts: ReloadFacts) -> ScheduledReload? {
        guard let pending = pendingReload(slot.provider, slot.id, facts) else { return nil }
        return ScheduledReload(
            instance: slot.id, kind: kindNames[Int(slot.kind)], due: pending.effective, wanted: pending.wanted,
            reason: pending.hold ?? pending.reason, inFlight: facts.timing.inFlight,
            heldReason: pending.held ? pending.reason : nil)
    }

    /// Puts the slot's reload node where its pending reload now is, or takes it out (a reload
    /// in flight waits for the answer; one held, while no host shows the instance, the session
    /// is locked or in power-saver, waits in no wheel).
    private mutating func reschedule(_ index: Int32, _ facts: ReloadFacts) {
        let provider = slots[Int(index)].provider
        guard !facts.timing.inFlight, let pending = pendingReload(provider, slots[Int(index)].id, facts), !pending.held else {
            due.remove(Self.reloadHandle(index), positions: &positions)
            removePending(index)
            return
        }
        let date = pending.effective.timeIntervalSinceReferenceDate
        due.set(Self.reloadHandle(index), date: date, tie: Self.reloadTie | nextSequence(), positions: &positions)
        // Partners are found in no particular order: equal dates need no tie here.
        providers[Int(provider)].pending.set(Self.pendingHandle(index), date: date, tie: 0, positions: &positions)
    }

    private mutating func removePending(_ index: Int32) {
        let provider = slots[Int(index)].provider
        guard provider != Slot.noProvider else { return }
        providers[Int(provider)].pending.remove(Self.pendingHandle(index), positions: &positions)
    }

    /// Takes the slot out of every wheel.
    private mutating func unlink(_ index: Int32) {
        due.remove(Self.entryHandle(index), positions: &positions)
        due.remove(Self.reloadHandle(index), positions: &positions)
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

    /// Ties are 31 bits so that a wheel node fits in 16 bytes. Before the sequence runs out,
    /// the ties in use (at most two per instance) are replaced by their ranks, which keeps
    /// every order and frees the rest of the range: O(n log n) once per two billion changes.
    private mutating func renumber() {
        var used: [UInt32] = []
        due.forEach { used.append($0.tie & ~Self.reloadTie) }
        used = Array(Set(used)).sorted()
        var rank: [UInt32: UInt32] = [:]
        rank.reserveCapacity(used.count)
        for (index, tie) in used.enumerated() { rank[tie] = UInt32(index + 1) }
        due.mapTies { ($0 & Self.reloadTie) | rank[$0 & ~Self.reloadTie]! }
        sequence = UInt32(used.count)
    }

    @inline(__always) private static func entryHandle(_ slot: Int32) -> Int32 { 3 &* slot }
    @inline(__always) private static func reloadHandle(_ slot: Int32) -> Int32 { 3 &* slot &+ 1 }
    @inline(__always) private static func pendingHandle(_ slot: Int32) -> Int32 { 3 &* slot &+ 2 }

    /// Reload nodes sort after entry-change nodes at the same date.
    private static let reloadTie: UInt32 = 1 << 31

    /// What places an instance in the schedule besides its timing: which instance, its kind and
    /// provider (interned), and where it is in its kind's list. Its due dates are its nodes in
    /// the wheels.
    private struct Slot: Sendable {
        static let noProvider: Int32 = -1
        static let free = Slot(id: "", kind: -1, provider: noProvider)

        var id: InstanceID
        /// -1 for a free slot.
        var kind: Int32
        var provider: Int32
        /// Where the slot is in its kind's list.
        var kindPosition: Int32 = 0
        /// Where its timing was last found in the store: tried first the next time, and checked
        /// there (`ReloadTimingStore.place(of:hint:)`), so a stale one costs only a lookup.
        var place: Int32 = -1

        init(id: InstanceID, kind: Int32, provider: Int32) {
            self.id = id
            self.kind = kind
            self.provider = provider
        }

        var inUse: Bool { kind >= 0 }
    }

    private struct ProviderQueue: Sendable {
        var key: String
        var pending = TimingWheel(shape: .coarse)
    }
}
