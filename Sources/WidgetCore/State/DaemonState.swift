import Foundation

/// Everything the daemon knows, as one value with no I/O: descriptors and settings, one record
/// per instance, the stacks, the donations and the schedule. Time is always passed in.
///
/// What the daemon knows of an instance is its record in `instances` (its reload timing
/// included, with the indexes the book derives from its records) and its slot in `scheduler`
/// (only where its reload and entry change are in the schedule); the stacks that hold it name it. `addInstance` and `removeInstance` are the only ways in and out.
///
/// Changes are made in two halves. A `plan…` method works out a `Plan` against the state as
/// it is (validating first, so a refusal changes nothing); the daemon stores the plan's
/// changes, then `apply` carries them out in memory. Time-driven work (`takeDue`) changes the
/// schedule at once and hands back what to carry out.
///
/// The state's stored properties all live here; the operations are in `DaemonState+*.swift`
/// by domain.
public struct DaemonState: Sendable {
    public internal(set) var descriptors: [String: WidgetDescriptor]
    public internal(set) var settings: DaemonSettings
    public internal(set) var instances = InstanceBook()
    public internal(set) var stacks = StackBook()
    public internal(set) var donations = DonationLog()
    /// Instances not loaded because a stored row of theirs does not decode, shown as failed
    /// until removed; nothing else refers to them.
    public internal(set) var failedInstances: [InstanceID: FailedInstance] = [:]
    public internal(set) var scheduler: ReloadScheduler
    /// Time of day and weekends (donation affinity) are read in this calendar's time zone.
    public internal(set) var calendar: Calendar
    public internal(set) var counters = Counters()
    /// What the session's sources and the hosts reported (in memory only).
    public internal(set) var context = ContextState()
    /// Stacks to evaluate before the step that touched them ends.
    public internal(set) var dirtyStacks: Set<String> = []
    /// What each stack's last evaluation read of its members' relevance (see `RankingMemo`),
    /// by stack name, in stack order.
    var rankingMemos: [String: [RankingMemo]] = [:]
    /// The local day of the last donation read (see `localTime`).
    var lastDay: LocalDay?
    /// The launches each caller asked for through `preview`, `placeholder` and `options`,
    /// for `[providers] preview-launches-per-minute`. In memory only: a restart forgets at most
    /// a minute of them.
    var previewLaunches = CallerLaunchWindow()
    var ids: InstanceIDSource
    let affinity = DonationAffinity()

    /// Numbers that only grow.
    public struct Counters: Sendable, Hashable {
        /// Counts pushes and configurations, so a provider answer can tell it is stale.
        public internal(set) var change: UInt64 = 0
        /// The sequence of the last stored reload request.
        public internal(set) var request: Int64 = 0
        /// Launches started.
        public internal(set) var launch: UInt64 = 0
        /// Provider answers dropped because the instance was pushed to or configured after
        /// the launch began.
        public internal(set) var droppedAnswers = 0
    }

    /// An empty state. `idSeed` makes instance ids a reproducible sequence (the virtual clock
    /// uses it, so a script gets the same ids every run); nil draws them at random.
    public init(
        descriptors: [String: WidgetDescriptor], settings: DaemonSettings, calendar: Calendar, idSeed: UInt64? = nil
    ) {
        self.descriptors = descriptors
        self.settings = settings
        self.calendar = calendar
        ids = InstanceIDSource(seed: idSeed)
        instances.setIntentSchemas(descriptors.compactMapValues(\.intent))
        scheduler = ReloadScheduler(
            budget: settings.reloadBudget,
            coalescingWindow: settings.coalescingWindow)
    }

    /// Carries out a plan whose changes are stored.
    public mutating func apply(_ plan: Plan) {
        for effect in plan.effects { effect(&self) }
    }

    /// The earliest instant anything is due: a reload, an entry change, or a stack recheck.
    public var nextWake: Date? {
        [scheduler.nextDeadline(), stacks.nextRecheck].compactMap { $0 }.min()
    }

    /// A new instance id, unused so far.
    public mutating func makeInstanceID() -> InstanceID {
        while true {
            let id = ids.next()
            // A failed instance's rows are still stored under its id.
            if !instances.contains(id), failedInstances[id] == nil { return id }
        }
    }

    // MARK: Reading

    public func record(_ id: InstanceID) throws(StateError) -> InstanceRecord {
        guard let record = instances[id] else {
            throw failedInstances[id].map { .failedInstance(id, reason: $0.reason) } ?? .unknownInstance(id)
        }
        return record
    }

    public func stack(_ name: String) throws(StateError) -> StackState {
        guard let stack = stacks[name] else { throw .unknownStack(name) }
        return stack
    }

    public func providerKey(for kind: String) -> String {
        descriptors[kind]?.provider?.key ?? ""
    }

    public func hasProvider(_ kind: String) -> Bool {
        descriptors[kind]?.provider != nil
    }

    /// The policy's due date. A provider answer whose policy is already due would reload at
    /// once, forever when the budget is off; such a reload waits the minimum spacing (at least
    /// 1 s) after the launch that produced it.
    func policyDue(for kind: String, _ timeline: WidgetTimeline, receivedAt: Date, fromProvider: Bool = false) -> Date? {
        policyDue(hasProvider: hasProvider(kind), timeline, receivedAt: receivedAt, fromProvider: fromProvider)
    }

    /// `policyDue(for:…)` for a kind already known to have a provider or not.
    func policyDue(hasProvider: Bool, _ timeline: WidgetTimeline, receivedAt: Date, fromProvider: Bool = false) -> Date? {
        guard hasProvider, let date = timeline.policyDate(receivedAt: receivedAt) else { return nil }
        if fromProvider && date <= receivedAt {
            return receivedAt.addingTimeInterval(max(settings.minimumSpacing, 1))
        }
        return date
    }

    /// `date` in local time, reading the calendar only for a day not read last time.
    mutating func localTime(_ date: Date) -> LocalTime {
        if let day = lastDay, day.contains(date, zone: calendar.timeZone) { return LocalTime(date, day: day) }
        guard let day = LocalDay(date, calendar: calendar) else { return LocalTime(date, calendar: calendar) }
        lastDay = day
        return LocalTime(date, day: day)
    }

    /// Puts a new instance's record in the book and its slot in the schedule, where the
    /// record's timing puts it; a record with a request is due as the request says.
    mutating func addInstance(_ record: InstanceRecord) {
        let handle = instances.put(record)
        scheduler.add(handle, kind: record.kind, providerKey: providerKey(for: record.kind), in: instances)
        if let request = record.request { scheduler.request(handle, reason: request.reason, at: request.wanted, in: &instances) }
    }

    /// Forgets an instance: its record (and with it what the book derives from it) and its
    /// slot in the schedule. The stacks that hold it are changed by the plan that removes it,
    /// as their rows are stored. A launch running for it is answered and its answer dropped.
    mutating func removeInstance(_ id: InstanceID) {
        guard let handle = instances.handle(of: id) else { return }
        scheduler.remove(handle)
        instances.remove(id)
    }

    /// The intent schema of each kind that has one.
    var intentSchemas: [String: IntentSchema] {
        descriptors.compactMapValues(\.intent)
    }

    mutating func nextRequestSequence() -> Int64 {
        counters.request += 1
        return counters.request
    }

    mutating func nextChange() -> UInt64 {
        counters.change += 1
        return counters.change
    }
}

/// Instance ids: eight hex digits, short enough to type in `widgetctl`.
struct InstanceIDSource: Sendable {
    private var generator: SplitMix64?

    init(seed: UInt64?) {
        generator = seed.map { SplitMix64(seed: $0) }
    }

    mutating func next() -> InstanceID {
        let value: UInt32
        if generator != nil {
            value = UInt32(truncatingIfNeeded: generator!.next() >> 32)
        } else {
            value = UInt32.random(in: 0...UInt32.max)
        }
        return String(format: "%08x", value)
    }
}
