import Foundation

// What each value that can show donations leaves out for a caller who may not list them
// (`DonationSight`): a candidate's donation ids and dates (emptied, and marked
// `donationsHidden`), and a simulation's donation ticks of instances the caller may not see
// (the entries left out).

extension RankedCandidate: DonationRedactable {
    /// Marked even when no donation contributed: whether any did is itself the caller's to
    /// know only if it may list them.
    public func redacted(for sight: DonationSight) -> RankedCandidate {
        guard !sight.shows(instance) else { return self }
        var copy = self
        copy.donations = []
        copy.donationsHidden = true
        return copy
    }
}

extension RotationDecision: DonationRedactable {
    public func redacted(for sight: DonationSight) -> RotationDecision {
        var copy = self
        copy.candidates = candidates.redacted(for: sight)
        return copy
    }

    /// The instances of its candidates: whose donations it may show.
    public var donationInstances: Set<InstanceID> {
        Set(candidates.map(\.instance))
    }
}

extension SimulationReport: DonationRedactable {
    public func redacted(for sight: DonationSight) -> SimulationReport {
        guard sight.instances != nil else { return self }
        var copy = self
        copy.donations = donations.filter { sight.shows($0.instance) }
        return copy
    }
}
