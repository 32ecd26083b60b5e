import Foundation

/// One earliest-deadline structure for every instance: reload due dates (policy, requests,
/// budget deferrals) and entry-change dates. No timer or task per timeline: the owner asks
/// for `nextDeadline()`, sleeps until then, and calls `popDue(now:in:)`, which answers with the
/// events to carry out. Pure: time is always passed in.
///
/// A slot is what orders one instance's reload and nothing else: its kind and provider, and its
/// places in the wheels (its next entry change and its next reload). What the reload's date is
/// worked out from (policy date, merged request, budget history, whether a launch runs, since
/// when no host has shown it) is the instance's record's (`ReloadTiming` in `InstanceRecord`):
/// every call that needs it is given the store of records (`ReloadTimingStore`), reads the
/// timing there, and writes what it changes back there (`change`, the one path), then moves the
/// slot's node. So removing an instance is removing its record and its slot
/// (`DaemonState.removeInstance`), and no fact is kept twice.
///
/// Slots are numbered by the record's handle (`RecordHandle`), which a removal of another record
/// does not change: the scheduler keeps no id and no id table, and a call by handle reaches the
/// slot and the record by index. The calls by id (`ReloadScheduler+IDs`) find the handle in the
/// store's id table first. The calls a step of the daemon makes are also compiled for the book
/// itself, so that a caller in another module (the benchmarks) runs the same code as the state.
///
/// Each slot has at most one handle in the due wheel per purpose (its next entry change and its
/// next reload, moved in place when they change) and at most one in its provider's wheel of
/// pending reloads, so the wheels never hold stale entries and their size is bounded by the
/// number of instances. `TimingWheel` makes each of those moves, and taking the earliest, O(1)
/// amortised, where a heap sifts through log n levels, each a cache miss once the schedule
/// outgrows the cache.
public struct ReloadScheduler: Sendable {
    public private(set) var budget: ReloadBudget
    /// Coalescing window W (docs/overview.md).
    public var coalescingWindow: TimeInterval

    public private(set) var instanceCount = 0
    /// In the due wheel, handle 8·slot is the slot's next entry change and 8·slot + 1 its next
    /// reload (at the date the budget lets it run).
    private var due = TimingWheel()
    /// Per provider, the slots with a reload pending, as handle 8·slot + 2, by the date it can
    /// run (the date of its due handle): a launch finds its merge partners, those wanted within
    /// W that the budget lets run now, without a scan. Every such partner can run by now + W, so
    /// only those are read. A slot waits in at most one provider's wheel.
    private var providers: [ProviderQueue] = []
    private var providerOfKey: [String: Int32] = [:]
    /// The slots, numbered by record handle: slot s is the eight words from 8·s, where its three
    /// handles are in the wheels (words 0 to 2, at the handles' own numbers), then its kind,
    /// its provider and its place in its kind's list (`Field`), then two unused. One block of
    /// 32 bytes, two to a cache line, so moving a slot's reload reads its slot and where its
    /// nodes are in one line. A free slot is all `SlotHeap.absent` (-1): no kind, no provider.
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

    /// Registers the instance whose record in `store` has `handle`, where its timing puts it;
    /// `providerKey` groups instances that share launches. An empty key means the kind has no
    /// provider (push-only, or its descriptor is gone): its due dates are kept but nothing is
    /// launched or listed until it gets one. Registering a handle again starts its slot afresh.
    public mutating func add(_ handle: RecordHandle, kind: String, providerKey: String, in store: some ReloadTimingStore) {
        let index = handle.index
        precondition(index >= 0 && index < Self.slotLimit, "a record handle")
        let (kind, provider) = (internKind(kind), internProvider(providerKey))
        if Int(index) >= slotCount { positions.append(absent: Self.slotWords * (Int(index) + 1 - slotCount)) }
        if inUse(index) {
            unlink(index)
        } else {
            instanceCount += 1
        }
        self[index, .kind] = kind
        self[index, .provider] = provider
        linkKind(index)
        reschedule(index, store.reloadFacts(of: handle), store)
    }

    /// Makes room for `count` instances at once (a restart knows how many it will add), so the
    /// slot arrays are not grown by doubling and left up to twice the size they need.
    public mutating func reserveCapacity(_ count: Int) {
        positions.items.reserveCapacity(Self.slotWords * count)
    }

    public mutating func remove(_ handle: RecordHandle) {
        guard contains(handle) else { return }
        unlink(handle.index)
        for field in [Field.kind, .provider, .kindPosition] { self[handle.index, field] = SlotHeap.absent }
        instanceCount -= 1
    }

    /// After descriptors are reloaded a kind may have a different provider.
    public mutating func updateProvider(_ handle: RecordHandle, providerKey: String, in store: some ReloadTimingStore) {
        guard contains(handle) else { return }
        let index = handle.index
        let provider = internProvider(providerKey)
        guard self[index, .provider] != provider else { return }
        removePending(index)
        self[index, .provider] = provider
        reschedule(index, store.reloadFacts(of: handle), store)
    }

    public func contains(_ handle: RecordHandle) -> Bool {
        handle.index >= 0 && Int(handle.index) < slotCount && inUse(handle.index)
    }

    /// The instances of a kind, in no particular order.
    public func instances(ofKind kind: String) -> [RecordHandle] {
        guard let index = kindOfName[kind] else { return [] }
        return slotsOfKind[Int(index)].map(RecordHandle.init)
    }

    public mutating func updateBudget(_ budget: ReloadBudget, in store: some ReloadTimingStore) {
        self.budget = budget
        for index in 0..<slotCount where inUse(Int32(index)) {
            let handle = RecordHandle(Int32(index))
            reschedule(handle.index, store.reloadFacts(of: handle), store)
        }
    }

    /// Takes `budget`, which differs from the one held only for `handles` (a host began or
    /// stopped showing them while the session is locked): only their reloads move.
    public mutating func updateBudget(_ budget: ReloadBudget, only handles: some Sequence<RecordHandle>, in store: some ReloadTimingStore) {
        self.budget = budget
        for handle in handles { reschedule(handle, in: store) }
    }

    /// Places the instance's reload again after its facts changed outside the scheduler (a
    /// host showed it or stopped showing it: its `hiddenSince`). A reload held while it was
    /// hidden becomes due at once when it is shown.
    public mutating func reschedule(_ handle: RecordHandle, in store: some ReloadTimingStore) {
        guard contains(handle) else { return }
        reschedule(handle.index, store.reloadFacts(of: handle), store)
    }

    // MARK: Due dates

    /// Replaces the policy due date after a timeline arrives (nil: `never`).
    @_specialize(exported: true, where Store == InstanceBook)
    public mutating func setPolicyDue<Store: ReloadTimingStore>(_ handle: RecordHandle, _ date: Date?, in store: inout Store) {
        change(handle, in: &store) { timing, _ in timing.policyDue = date }
    }

    /// Asks for a reload wanted at `wanted`. Requests collapse: the one that can run first
    /// is kept, an exempt one preferred at equal times.
    @_specialize(exported: true, where Store == InstanceBook)
    public mutating func request<Store: ReloadTimingStore>(
        _ handle: RecordHandle, reason: ReloadReason, at wanted: Date, in store: inout Store
    ) {
        let budget = budget
        change(handle, in: &store) { timing, hiddenSince in
            timing.request = timing.merged(reason, at: wanted, budget: budget, hiddenSince: hiddenSince)
        }
    }

    /// What `request` would keep for this instance, without changing anything: the caller
    /// persists it before the request takes effect.
    public func mergedRequest(
        _ handle: RecordHandle, reason: ReloadReason, at wanted: Date, in store: some ReloadTimingStore
    ) -> (reason: ReloadReason, wanted: Date) {
        guard contains(handle) else { return (reason, wanted) }
        let facts = store.reloadFacts(of: handle)
        return facts.timing.merged(reason, at: wanted, budget: budget, hiddenSince: facts.hiddenSince)
    }

    /// The next date the shown entry changes (nil: none).
    public mutating func setNextEntryChange(_ handle: RecordHandle, _ date: Date?) {
        guard contains(handle) else { return }
        let entry = Self.entryHandle(handle.index)
        if let date {
            due.set(entry, date: date.timeIntervalSinceReferenceDate, tie: nextSequence(), positions: &positions)
        } else {
            due.remove(entry, positions: &positions)
        }
    }

    /// A launched reload finished with a new timeline whose policy wants `policyDue`.
    @_specialize(exported: true, where Store == InstanceBook)
    public mutating func completed<Store: ReloadTimingStore>(_ handle: RecordHandle, policyDue: Date?, in store: inout Store) {
        change(handle, in: &store) { timing, _ in
            timing.inFlight = false
            timing.policyDue = policyDue
        }
    }

    /// A launched reload failed: the old timeline stays and another attempt is wanted at
    /// `retryAt`, under the budget. The old policy date still stands.
    public mutating func failed(_ handle: RecordHandle, policyDue: Date?, retryAt: Date, in store: inout some ReloadTimingStore) {
        let budget = budget
        change(handle, in: &store) { timing, hiddenSince in
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
        for index in 0..<slotCount where inUse(Int32(index)) {
            let handle = RecordHandle(Int32(index))
            let facts = store.changeTiming(of: handle) { timing, _ in timing.clockSteppedBack(from: old, to: now) }
            reschedule(handle.index, facts, store)
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
    /// first; then the order in which the dates were set. Each event names its instances by id
    /// and by handle, for the caller's next calls.
    @_specialize(exported: true, where Store == InstanceBook)
    public mutating func popDue<Store: ReloadTimingStore>(now: Date, in store: inout Store) -> [SchedulerEvent] {
        var events: [SchedulerEvent] = []
        let limit = now.timeIntervalSinceReferenceDate
        while let top = due.min, top.date <= limit {
            let index = top.handle >> 3
            let handle = RecordHandle(index)
            if top.handle == Self.entryHandle(index) {
                due.remove(top.handle, positions: &positions)
                events.append(.entryChange(store.instanceID(of: handle), Date(timeIntervalSinceReferenceDate: top.date), handle))
                continue
            }
            // Every change to a timing moves its node, so the node's date is its effective date
            // and the reload can run now.
            let facts = store.reloadFacts(of: handle)
            guard !facts.timing.inFlight, let pending = pendingReload(index, facts, store), pending.effective <= now else {
                assertionFailure("due wheel out of step with slot \(index)")
                reschedule(index, facts, store)
                continue
            }
            events.append(.reload(launch(startingWith: index, pending: pending, now: now, in: &store)))
        }
        return events
    }

    /// Pending reloads, earliest first, for `widgetctl schedule`.
    public func pendingReloads(in store: some ReloadTimingStore) -> [ScheduledReload] {
        (0..<slotCount).compactMap { index -> ScheduledReload? in
            guard inUse(Int32(index)) else { return nil }
            let handle = RecordHandle(Int32(index))
            return scheduled(handle, store.reloadFacts(of: handle), store)
        }
        .sorted { ($0.due, $0.instance) < ($1.due, $1.instance) }
    }

    /// How many reloads are pending (what `pendingReloads(in:)` lists), without listing them.
    public func pendingReloadCount(in store: some ReloadTimingStore) -> Int {
        (0..<slotCount).count { index in
            guard inUse(Int32(index)) else { return false }
            let handle = RecordHandle(Int32(index))
            return pendingReload(handle.index, store.reloadFacts(of: handle), store) != nil
        }
    }

    public func pendingReload(for handle: RecordHandle, in store: some ReloadTimingStore) -> ScheduledReload? {
        guard contains(handle) else { return nil }
        return scheduled(handle, store.reloadFacts(of: handle), store)
    }

    /// The number of handles held in the wheels (for tests that they stay bounded).
    public var heldEntries: Int { due.count + providers.reduce(0) { $0 + $1.pending.count } }

    /// Where each instance's reload is in the due wheel and in its provider's wheel (for tests
    /// that a slot is where its record's timing puts it).
    func reloadNodes(in store: some ReloadTimingStore) -> [InstanceID: (due: Date, pending: Date?)] {
        var dates: [InstanceID: (due: Date, pending: Date?)] = [:]
        due.forEach { node in
            guard node.handle == Self.reloadHandle(node.handle >> 3) else { return }
            dates[store.instanceID(of: RecordHandle(node.handle >> 3))] = (Date(timeIntervalSinceReferenceDate: node.date), nil)
        }
        for provider in providers {
            provider.pending.forEach { node in
                let id = store.instanceID(of: RecordHandle(node.handle >> 3))
                dates[id, default: (.distantPast, nil)].pending = Date(timeIntervalSinceReferenceDate: node.date)
            }
        }
        return dates
    }

    // MARK: Internals

    /// Changes the instance's timing in the store and moves its reload to where the timing
    /// now puts it: the one path every change of a timing takes.
    @inline(__always)
    private mutating func change<Store: ReloadTimingStore>(
        _ handle: RecordHandle, in store: inout Store, _ body: (inout ReloadTiming, _ hiddenSince: Date?) -> Void
    ) {
        guard contains(handle) else { return }
        reschedule(handle.index, store.changeTiming(of: handle, body), store)
    }

    private mutating func launch<Store: ReloadTimingStore>(
        startingWith first: Int32, pending: PendingReload, now: Date, in store: inout Store
    ) -> ReloadBatch {
        let provider = self[first, .provider]
        let firstHandle = RecordHandle(first)
        let member = ReloadMember(instance: store.instanceID(of: firstHandle), reason: pending.reason, wanted: pending.wanted, handle: firstHandle)
        // Merge what is wanted within W and that the budget allows now. Those the budget holds
        // back stay where they are for a later launch. A partner can run at max(wanted, the
        // budget's next allowed date), both by now + W (or by now, for a negative W): only
        // those are read.
        let horizon = now.addingTimeInterval(coalescingWindow)
        let runsBy = max(horizon, now).timeIntervalSinceReferenceDate
        var partners: [(slot: Int32, member: ReloadMember)] = []
        let budget = budget
        providers[Int(provider)].pending.forEach(through: runsBy) { node in
            let index = node >> 3
            guard index != first else { return }
            let handle = RecordHandle(index)
            let facts = store.reloadFacts(of: handle)
            guard let candidate = pendingReload(index, facts, store), !candidate.held, candidate.wanted <= horizon,
                budget.effectiveDate(facts.timing.history, wanted: now, reason: candidate.reason, shown: facts.hiddenSince) <= now
            else { return }
            let partner = ReloadMember(instance: store.instanceID(of: handle), reason: candidate.reason, wanted: candidate.wanted, handle: handle)
            partners.append((index, partner))
        }
        take(first, member.reason, now: now, in: &store)
        // Most launches have no partner: one member, no sorting.
        guard !partners.isEmpty else {
            return ReloadBatch(providerKey: providers[Int(provider)].key, date: now, members: [member])
        }
        partners.append((first, member))
        partners.sort { ($0.member.wanted, $0.member.instance) < ($1.member.wanted, $1.member.instance) }
        for (index, partner) in partners where index != first {
            take(index, partner.reason, now: now, in: &store)
        }
        return ReloadBatch(providerKey: providers[Int(provider)].key, date: now, members: partners.map(\.member))
    }

    /// A launch takes the slot's pending reload: it is in flight until the provider answers.
    @inline(__always)
    private mutating func take(_ index: Int32, _ reason: ReloadReason, now: Date, in store: inout some ReloadTimingStore) {
        let budget = budget
        store.changeTiming(of: RecordHandle(index)) { timing, _ in timing.take(reason, at: now, budget: budget) }
        due.remove(Self.reloadHandle(index), positions: &positions)
        removePending(index)
    }

    /// The reload the slot would launch next (nil: none, or its kind has no provider).
    @inline(__always)
    private func pendingReload(_ index: Int32, _ facts: ReloadFacts, _ store: some ReloadTimingStore) -> PendingReload? {
        guard self[index, .provider] != Self.noProvider else { return nil }
        // The id is read only for the session's hold, which looks at it only while the session
        // is locked (an instance a host shows is not held then).
        let id = budget.session.locked ? store.instanceID(of: RecordHandle(index)) : ""
        return facts.timing.pending(budget: budget, hiddenSince: facts.hiddenSince, instance: id)
    }

    private func scheduled(_ handle: RecordHandle, _ facts: ReloadFacts, _ store: some ReloadTimingStore) -> ScheduledReload? {
        guard let pending = pendingReload(handle.index, facts, store) else { return nil }
        return ScheduledReload(
            instance: store.instanceID(of: handle), kind: kindNames[Int(self[handle.index, .kind])], due: pending.effective,
            wanted: pending.wanted, reason: pending.hold ?? pending.reason, inFlight: facts.timing.inFlight,
            heldReason: pending.held ? pending.reason : nil)
    }

    /// Puts the slot's reload node where its pending reload now is, or takes it out (a reload
    /// in flight waits for the answer; one held, while no host shows the instance, the session
    /// is locked or in power-saver, waits in no wheel).
    @inline(__always)
    private mutating func reschedule(_ index: Int32, _ facts: ReloadFacts, _ store: some ReloadTimingStore) {
        let provider = self[index, .provider]
        guard !facts.timing.inFlight, let pending = pendingReload(index, facts, store), !pending.held else {
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
        let provider = self[index, .provider]
        guard provider != Self.noProvider else { return }
        providers[Int(provider)].pending.remove(Self.pendingHandle(index), positions: &positions)
    }

    /// Takes the slot out of every wheel.
    private mutating func unlink(_ index: Int32) {
        due.remove(Self.entryHandle(index), positions: &positions)
        due.remove(Self.reloadHandle(index), positions: &positions)
        removePending(index)
        let kind = Int(self[index, .kind])
        let position = Int(self[index, .kindPosition])
        let last = slotsOfKind[kind].removeLast()
        if position < slotsOfKind[kind].count {
            slotsOfKind[kind][position] = last
            self[last, .kindPosition] = Int32(position)
        }
    }

    private mutating func linkKind(_ index: Int32) {
        let kind = Int(self[index, .kind])
        self[index, .kindPosition] = Int32(slotsOfKind[kind].count)
        slotsOfKind[kind].append(index)
    }

    private mutating func internProvider(_ key: String) -> Int32 {
        guard !key.isEmpty else { return Self.noProvider }
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

    @inline(__always) private static func entryHandle(_ slot: Int32) -> Int32 { slot &<< 3 }
    @inline(__always) private static func reloadHandle(_ slot: Int32) -> Int32 { slot &<< 3 &+ 1 }
    @inline(__always) private static func pendingHandle(_ slot: Int32) -> Int32 { slot &<< 3 &+ 2 }

    /// The words of a slot in `positions`, and the slots that fit in 32-bit handles.
    private static let slotWords = 8
    private static let slotLimit: Int32 = Int32.max >> 3
    private static let noProvider: Int32 = SlotHeap.absent

    /// What a slot keeps besides where its nodes are: its kind and provider (interned) and where
    /// it is in its kind's list.
    private enum Field: Int {
        case kind = 3
        case provider = 4
        case kindPosition = 5
    }

    private var slotCount: Int { positions.items.count / Self.slotWords }

    private subscript(slot: Int32, field: Field) -> Int32 {
        @inline(__always) get { positions.items[Int(slot) &* Self.slotWords &+ field.rawValue] }
        @inline(__always) set { positions.items[Int(slot) &* Self.slotWords &+ field.rawValue] = newValue }
    }

    /// A slot with a kind holds an instance.
    @inline(__always)
    private func inUse(_ slot: Int32) -> Bool { self[slot, .kind] >= 0 }

    /// Reload nodes sort after entry-change nodes at the same date.
    private static let reloadTie: UInt32 = 1 << 31

    private struct ProviderQueue: Sendable {
        var key: String
        var pending = TimingWheel(shape: .coarse)
    }
}
