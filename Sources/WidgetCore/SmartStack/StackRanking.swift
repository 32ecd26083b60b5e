import Foundation

/// One instance of a stack as ranked at a moment, with every component (for `explain` and
/// the decision log).
public struct RankedCandidate: Sendable, Hashable, Codable {
    public var instance: InstanceID
    /// The score in force, nil when none (never had one, or it lapsed).
    public var score: Double?
    public var relevanceSince: Date?
    public var relevanceUntil: Date?
    /// The score relative to the instance's own best in the window, in [0, 1].
    public var relevance: Double
    public var affinity: Double
    /// Ids (or dates) of the donations that contributed most; empty in an answer to a caller
    /// who may not list them (`DonationSight`), which then has `donationsHidden`.
    public var donations: [String]
    /// True where `donations` was emptied for the caller; absent otherwise. A new field rather
    /// than a missing `donations`, so clients that expect the array keep reading the answer.
    public var donationsHidden: Bool?
    /// False while the score in force is <= 0: never rotated in.
    public var eligible: Bool
    public var rank: Double
    /// The alternative of the score's `when` that holds now; nil when the score names no
    /// clues or none holds (then `relevance` is 0).
    public var clue: HeldClue?

    public init(
        instance: InstanceID, score: Double?, relevanceSince: Date?, relevanceUntil: Date?, relevance: Double, affinity: Double,
        donations: [String], eligible: Bool, rank: Double, clue: HeldClue? = nil
    ) {
        self.instance = instance
        self.score = score
        self.relevanceSince = relevanceSince
        self.relevanceUntil = relevanceUntil
        self.relevance = relevance
        self.affinity = affinity
        self.donations = donations
        self.eligible = eligible
        self.rank = rank
        self.clue = clue
    }

    private enum CodingKeys: String, CodingKey {
        case instance, score, relevanceSince, relevanceUntil, relevance, affinity, donations, donationsHidden, eligible, rank, clue
    }

    /// As synthesized, except that `clue` is written as null when no clue holds: readers look
    /// for the key (interface: `explain`'s candidates have `clue`).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(instance, forKey: .instance)
        try container.encodeIfPresent(score, forKey: .score)
        try container.encodeIfPresent(relevanceSince, forKey: .relevanceSince)
        try container.encodeIfPresent(relevanceUntil, forKey: .relevanceUntil)
        try container.encode(relevance, forKey: .relevance)
        try container.encode(affinity, forKey: .affinity)
        try container.encode(donations, forKey: .donations)
        try container.encodeIfPresent(donationsHidden, forKey: .donationsHidden)
        try container.encode(eligible, forKey: .eligible)
        try container.encode(rank, forKey: .rank)
        try container.encode(clue, forKey: .clue)
    }

    /// Something speaks for this instance now.
    public func hasSignal(_ settings: RotationSettings) -> Bool {
        eligible && rank > settings.signalThreshold
    }
}

/// What is known of one instance when ranking.
public struct RankingInput: Sendable {
    public var instance: InstanceID
    public var history: RelevanceHistory
    /// With their local times already read (see `LocalTime`).
    public var matchedDonations: [LocalDonation]

    public init(instance: InstanceID, history: RelevanceHistory, matchedDonations: [LocalDonation]) {
        self.instance = instance
        self.history = history
        self.matchedDonations = matchedDonations
    }
}

public enum StackRanking {
    /// Ranks the instances of a stack at `now` (docs/smart-stacks.md).
    public static func rank(
        _ inputs: [RankingInput], at now: Date, settings: RotationSettings, affinity: DonationAffinity, calendar: Calendar,
        context: ContextState = ContextState()
    ) -> [RankedCandidate] {
        var slot: LocalTime?
        return rank(inputs, at: now, settings: settings, affinity: affinity, calendar: calendar, context: context, slot: &slot)
    }

    /// As above; `slot` is the local time of the slot holding `now`, read through `calendar`
    /// only when some instance has donations, and at most once for the stacks ranked at the
    /// same `now` with the same `slot` (nil until read).
    public static func rank(
        _ inputs: [RankingInput], at now: Date, settings: RotationSettings, affinity: DonationAffinity, calendar: Calendar,
        context: ContextState = ContextState(), slot: inout LocalTime?
    ) -> [RankedCandidate] {
        inputs.map { input in
            candidate(
                input.instance, current: input.history.current(at: now),
                relative: input.history.relative(at: now, window: settings.relevanceWindow),
                matchedDonations: input.matchedDonations, at: now, settings: settings, affinity: affinity, calendar: calendar,
                context: context, slot: &slot)
        }
    }

    /// One instance ranked from its score in force and relative relevance at `now` (read from
    /// its history, or kept from an earlier read that still holds: `RankingMemo`). A score with
    /// clues counts only while one of its alternatives holds in `context`: otherwise its
    /// relative relevance is 0, and it stays eligible (docs/clues.md).
    static func candidate(
        _ instance: InstanceID, current: CurrentRelevance?, relative: Double, matchedDonations: [LocalDonation], at now: Date,
        settings: RotationSettings, affinity: DonationAffinity, calendar: Calendar, context: ContextState,
        slot: inout LocalTime?
    ) -> RankedCandidate {
        var relative = relative
        var clue: HeldClue?
        if let current, let when = current.when {
            if let index = when.firstHolding(in: context) {
                clue = HeldClue(when[index], entryDate: current.since)
            } else {
                relative = 0
            }
        }
        var (value, contributions): (Double, [(donation: Donation, weight: Double)]) = (0, [])
        if !matchedDonations.isEmpty {
            let moment = slot ?? affinity.slotTime(now, calendar: calendar)
            slot = moment
            (value, contributions) = affinity.affinity(atSlot: moment, donations: matchedDonations)
        }
        let eligible = (current?.score ?? 1) > 0
        let rank = eligible ? settings.relevanceWeight * relative + settings.affinityWeight * value : 0
        return RankedCandidate(
            instance: instance, score: current?.score, relevanceSince: current?.since, relevanceUntil: current?.until,
            relevance: relative, affinity: value,
            donations: contributions.prefix(5).map { $0.donation.id ?? ISO8601.string(from: $0.donation.date) },
            eligible: eligible, rank: rank, clue: clue)
    }
}
