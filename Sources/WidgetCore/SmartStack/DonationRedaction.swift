import Foundation

// What each value that can show donations leaves out for a caller who may not list them
// (`DonationSight`): a candidate's donation ids and dates (the key left out), and a
// simulation's donation ticks of instances the caller may not see (the entries left out).

extension RankedCandidate: DonationRedactable {
    public func redacted(for sight: DonationSight) -> RankedCandidate {
        guard donations != nil, !sight.shows(instance) else { return self }
        var copy = self
        copy.donations = nil
        return copy
    }
}

extension RotationDecision: DonationRedactable {
    public func redacted(for sight: DonationSight) -> RotationDecision {
        var copy = self
        copy.candidates = candidates.redacted(for: sight)
        return copy
    }

    /// The instances whose donations it shows.
    public var donationInstances: Set<InstanceID> {
        Set(candidates.filter { $0.donations != nil }.map(\.instance))
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
