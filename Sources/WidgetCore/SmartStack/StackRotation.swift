import Foundation

/// A stack's rotation state: durable, changed only by `StackRotation.evaluate` and swipes.
public struct StackState: Sendable, Hashable, Codable {
    public var name: String
    public var instances: [InstanceID]
    public var top: InstanceID?
    /// The user's last choice (a swipe), where the stack returns when nothing has a signal.
    public var userChoice: InstanceID?
    public var smartRotate: Bool
    public var topSince: Date?
    public var holdUntil: Date?
    /// Rotations made by Smart Rotate, for the hourly cap (the last hour's are kept).
    public var rotations: [Date]
    /// The last held-back decision logged, so the same one is not logged at every re-evaluation.
    public var lastHeld: String?

    public init(name: String, instances: [InstanceID] = [], smartRotate: Bool = true) {
        self.name = name
        self.instances = instances
        self.smartRotate = smartRotate
        top = instances.first
        userChoice = nil
        topSince = nil
        holdUntil = nil
        rotations = []
        lastHeld = nil
    }

    /// Where the stack goes back to: the user's choice if still in the stack, else the first.
    public var home: InstanceID? {
        if let userChoice, instances.contains(userChoice) { return userChoice }
        return instances.first
    }

    /// A swipe: the user's choice goes on top at once and holds it.
    public mutating func swipe(to instance: InstanceID, at now: Date, hold: TimeInterval) {
        top = instance
        userChoice = instance
        topSince = now
        holdUntil = now.addingTimeInterval(hold)
        lastHeld = nil
    }
}

/// Why the top changed, or why a better candidate was held back.
public enum RotationReason: String, Sendable, Hashable, Codable {
    /// A candidate beat the top by the margin.
    case betterCandidate
    /// Nothing has a signal: back to the user's choice.
    case returnToUserChoice
    case heldByMargin
    case heldByDwell
    case heldByCap
    case heldByUserHold
}

/// One logged decision (docs/smart-stacks.md).
public struct RotationDecision: Sendable, Hashable, Codable {
    public var date: Date
    public var stack: String
    public var from: InstanceID?
    /// nil when the better candidate was held back.
    public var to: InstanceID?
    /// The candidate that was rotated in or held back.
    public var candidate: InstanceID
    public var reason: RotationReason
    public var candidates: [RankedCandidate]

    public init(
        date: Date, stack: String, from: InstanceID?, to: InstanceID?, candidate: InstanceID, reason: RotationReason,
        candidates: [RankedCandidate]
    ) {
        self.date = date
        self.stack = stack
        self.from = from
        self.to = to
        self.candidate = candidate
        self.reason = reason
        self.candidates = candidates
    }
}

public enum StackRotation {
    /// Decides the stack's top at `now` from its ranked candidates. Returns the decision to log
    /// (nil when nothing changes and nothing new is held back) and the next instant at which
    /// the answer can change for reasons of time alone (hold, dwell or cap ending).
    public static func evaluate(
        _ state: inout StackState, candidates: [RankedCandidate], at now: Date, settings: RotationSettings
    ) -> (decision: RotationDecision?, recheck: Date?) {
        // Dates after `now` mean the wall clock went back; see `clampDates`.
        state.clampDates(notAfter: now, hold: settings.userHold)
        state.rotations.removeAll { $0 <= now.addingTimeInterval(-3600) }
        guard !state.instances.isEmpty else { return (nil, nil) }
        // A stack holds a handful of instances (at most max-stack-size): searching them beats
        // hashing them into a dictionary at every evaluation.
        func candidate(_ id: InstanceID) -> RankedCandidate? { candidates.first { $0.instance == id } }
        let ordered = state.instances.compactMap(candidate)
        // Where the stack rests: the user's choice if it may be shown (score > 0 or none), else
        // the first instance that may; an ineligible instance is never put on top.
        let home = [state.home].compactMap { $0 }.first { candidate($0)?.eligible ?? true }
            ?? ordered.first(where: \.eligible)?.instance
        if state.top == nil || !state.instances.contains(state.top!) {
            state.top = home ?? state.instances.first
            state.topSince = now
        }
        guard state.smartRotate else { return (nil, nil) }
        // The best eligible candidate; ties go to the earlier one in the stack.
        var best: RankedCandidate?
        for candidate in ordered where candidate.eligible {
            if let current = best, !(current.rank < candidate.rank) { continue }
            best = candidate
        }
        let anySignal = ordered.contains { $0.hasSignal(settings) }
        let target: InstanceID?
        let reason: RotationReason
        if anySignal, let best, best.hasSignal(settings) {
            target = best.instance
            reason = .betterCandidate
        } else {
            target = home ?? state.top
            reason = .returnToUserChoice
        }
        guard let target, target != state.top else {
            state.lastHeld = nil
            return (nil, nil)
        }
        let topRank = state.top.flatMap { candidate($0)?.rank } ?? 0
        let targetRank = candidate(target)?.rank ?? 0

        var held: (RotationReason, Date?)?
        if let holdUntil = state.holdUntil, now < holdUntil {
            held = (.heldByUserHold, holdUntil)
        } else if let since = state.topSince, now < since.addingTimeInterval(settings.minimumDwell) {
            held = (.heldByDwell, since.addingTimeInterval(settings.minimumDwell))
        } else if reason == .betterCandidate, state.rotations.count >= settings.hourlyCap {
            held = (.heldByCap, state.rotations.first.map { $0.addingTimeInterval(3600) })
        } else if reason == .betterCandidate, targetRank < topRank + settings.margin {
            held = (.heldByMargin, nil)
        }
        let decision = RotationDecision(
            date: now, stack: state.name, from: state.top, to: nil, candidate: target, reason: reason, candidates: ordered)
        if let (heldReason, recheck) = held {
            let key = "\(heldReason.rawValue) \(target)"
            guard key != state.lastHeld else { return (nil, recheck) }
            state.lastHeld = key
            var logged = decision
            logged.reason = heldReason
            return (logged, recheck)
        }
        state.top = target
        state.topSince = now
        state.rotations.append(now)
        state.lastHeld = nil
        var rotated = decision
        rotated.to = target
        return (rotated, now.addingTimeInterval(settings.minimumDwell))
    }
}
