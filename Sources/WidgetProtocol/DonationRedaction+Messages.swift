import WidgetCore

// The answers and events of the protocol that carry ranked candidates, redacted as the core
// redacts them (`DonationSight`).

extension Explanation: DonationRedactable {
    public func redacted(for sight: DonationSight) -> Explanation {
        var copy = self
        copy.candidates = candidates.redacted(for: sight)
        return copy
    }
}

extension WidgetEvent: DonationRedactable {
    public func redacted(for sight: DonationSight) -> WidgetEvent {
        guard let decision else { return self }
        var copy = self
        copy.decision = decision.redacted(for: sight)
        return copy
    }

    /// The instances whose donations the event shows: empty for every event but a rotation
    /// whose candidates had donations, so most events need no redaction at all.
    public var donationInstances: Set<InstanceID> {
        decision?.donationInstances ?? []
    }
}
