import Foundation

/// A Smart Stack as the model keeps it.
struct ModelStack: Sendable {
    var name: String
    var instances: [String] = []
    var top: String?
    var userChoice: String?
    var smartRotate: Bool
    /// Unset until Smart Rotate, a swipe or a removal first puts something on top: the top an
    /// `add` puts into an empty stack has no dwell to wait out (the daemon's code; the session in
    /// docs/smart-stacks.md shows the rotation at once).
    var topSince: Seconds?
    var holdUntil: Seconds?
    /// Smart Rotate's rotations, for the hourly cap.
    var rotations: [Seconds] = []
    /// The last tops Smart Rotate or a removal chose, for reports.
    var log: [(date: Seconds, to: String)] = []

    /// Where the stack rests: the user's choice while it is in the stack, else the first.
    var home: String? {
        if let userChoice, instances.contains(userChoice) { return userChoice }
        return instances.first
    }

    mutating func append(_ id: String) {
        instances.append(id)
        if top == nil { top = instances.first }
    }

    mutating func swipe(to id: String, at now: Seconds) {
        top = id
        userChoice = id
        topSince = now
        holdUntil = now + ModelWidgets.userHold
    }

    /// The instance leaves the stack; when it was on top, the next evaluation picks another.
    mutating func remove(_ id: String, at now: Seconds) {
        instances.removeAll { $0 == id }
        if userChoice == id { userChoice = nil }
        if top == id {
            top = nil
            topSince = now
        }
    }

    /// One instance of the stack as ranked now.
    struct Candidate {
        var id: String
        var eligible: Bool
        var rank: Double

        var hasSignal: Bool { eligible && rank > 0.05 }
    }

    /// Decides the top at `now` (docs/smart-stacks.md, "Rotation"): the best eligible instance with a
    /// signal rotates in when it beats the top by the margin, the top has been shown the
    /// minimum dwell, fewer than the hourly cap rotations were made in the last hour and no
    /// user hold is active; with no signal anywhere the top goes back to the user's choice
    /// (or the first instance that may be shown) once the dwell and hold allow.
    /// Returns whether Smart Rotate rotated the stack (a decision the daemon logs with a `to`).
    @discardableResult
    mutating func evaluate(_ candidates: [Candidate], at now: Seconds) -> Bool {
        rotations.removeAll { $0 <= now - 3600 }
        guard !instances.isEmpty else { return false }
        let eligible = { (id: String) in candidates.first { $0.id == id }?.eligible ?? true }
        let rest = [home].compactMap { $0 }.first(where: eligible) ?? candidates.first(where: \.eligible)?.id
        if top == nil || !instances.contains(top!) {
            top = rest ?? instances.first
            topSince = now
            log = (log + [(now, top ?? "-")]).suffix(12)
        }
        guard smartRotate else { return false }
        // The best eligible; of equal ranks the earlier in the stack.
        var best: Candidate?
        for candidate in candidates where candidate.eligible && candidate.rank > (best?.rank ?? -.infinity) { best = candidate }
        let target: String?
        let better: Bool
        if let best, best.hasSignal {
            (target, better) = (best.id, true)
        } else {
            (target, better) = (rest ?? top, false)
        }
        guard let target, target != top else { return false }
        let topRank = candidates.first { $0.id == top }?.rank ?? 0
        let targetRank = candidates.first { $0.id == target }?.rank ?? 0
        if let holdUntil, now < holdUntil { return false }
        if let topSince, now < topSince + ModelWidgets.minimumDwell { return false }
        if better && rotations.count >= ModelWidgets.hourlyCap { return false }
        if better && targetRank < topRank + ModelWidgets.margin { return false }
        top = target
        topSince = now
        rotations.append(now)
        log = (log + [(now, target)]).suffix(12)
        return true
    }

    /// Instants after `now` at which time alone may let the decision change: the hold, the
    /// dwell or the hourly cap ending.
    func gates(after now: Seconds) -> [Seconds] {
        [holdUntil, topSince.map { $0 + ModelWidgets.minimumDwell }, rotations.first.map { $0 + 3600 }]
            .compactMap { $0 }.filter { $0 > now }
    }
}

/// An intent donation as the model keeps it.
struct ModelDonation: Equatable, Sendable {
    var intentType: String
    var topic: Int
    /// Only `ModelGamma` donations give a mode.
    var mode: Int?
    var date: Seconds
    var id: String
    var group: String

    /// Same intent type and, for one of the kind's supported combinations, every parameter
    /// equal in the donation and the configuration.
    func matches(_ kind: ModelKind, _ config: ModelConfig) -> Bool {
        guard intentType == kind.intentType else { return false }
        return kind.combinations.contains { combination in
            combination.allSatisfy { name in
                switch name {
                case "topic": topic == config.topic
                case "mode": mode == config.mode
                default: false
                }
            }
        }
    }
}

enum ModelAffinity {
    /// Donation affinity at `now` (docs/smart-stacks.md, "Donation affinity"): each matching donation counts
    /// from the 15-minute slot after its date, as a Gaussian of the time-of-day distance
    /// (sigma 1.5 h) times 1 on the same kind of day, else 0.25, times a recency factor halving
    /// every 14 days; the sum is squashed by 1 - exp(-sum/3). `donations` come oldest first.
    static func value(_ donations: [ModelDonation], at now: Seconds) -> Double {
        let slot = ModelTime.slotStart(now)
        var sum = 0.0
        for donation in donations
        where donation.date <= slot && slot - donation.date <= 90 * ModelTime.day {
            var delta = Double(abs(ModelTime.secondsOfDay(donation.date) - ModelTime.secondsOfDay(slot)))
            delta = min(delta, 86_400 - delta)
            let timeOfDay = exp(-0.5 * pow(delta / 5400, 2))
            let dayType = ModelTime.isWeekend(donation.date) == ModelTime.isWeekend(slot) ? 1 : 0.25
            let recency = pow(0.5, Double(slot - donation.date) / Double(14 * ModelTime.day))
            sum += timeOfDay * dayType * recency
        }
        return 1 - exp(-sum / 3)
    }
}
