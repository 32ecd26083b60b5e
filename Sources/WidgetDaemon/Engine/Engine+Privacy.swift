import WidgetCore
import WidgetProtocol

extension Engine {
    /// What each caller may see of the donations of `involved` (`DonationSight`), decided with
    /// the descriptors and their owners as loaded now. The descriptors are read once here, so
    /// an event told to many subscribers reads them once. An instance whose kind is gone, or
    /// that is gone itself (an old decision), shows its donations only to who sees every type.
    func donationSights(among involved: Set<InstanceID>) -> (PeerCredentials) -> DonationSight {
        guard !involved.isEmpty else { return { _ in .everything } }
        let declarations = state.descriptors.values.compactMap { descriptor in
            descriptor.intent.map { (intentType: $0.type, kind: KindOwnership(kind: descriptor.kind, owner: descriptor.owner)) }
        }
        var types: [InstanceID: String] = [:]
        for id in involved {
            if let kind = state.instances[id]?.kind, let type = state.descriptors[kind]?.intent?.type { types[id] = type }
        }
        let access = self.access
        return { caller in
            guard !access.isUnrestricted(caller), let visible = access.donationTypes(caller, declarations: declarations) else {
                return .everything
            }
            return DonationSight(instances: involved.filter { types[$0].map(visible.contains) ?? false }).narrowed(to: involved)
        }
    }

    /// `value` as `call`'s caller may see it.
    func redacted<Value: DonationRedactable>(_ value: Value, for call: Call, among involved: Set<InstanceID>) -> Value {
        guard !call.trusted else { return value }
        return value.redacted(for: donationSights(among: involved)(call.caller))
    }
}
