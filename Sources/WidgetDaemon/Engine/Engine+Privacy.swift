import WidgetCore
import WidgetProtocol

extension Engine {
    /// What `caller` may see of the donations of `involved` (`DonationSight`), decided with the
    /// descriptors and their owners as loaded now. An instance whose kind is gone, or that is
    /// gone itself (an old decision), shows its donations only to who sees every type.
    func donationSight(_ caller: PeerCredentials, among involved: Set<InstanceID>) -> DonationSight {
        guard !involved.isEmpty, !access.isUnrestricted(caller) else { return .everything }
        let declarations = state.descriptors.values.compactMap { descriptor in
            descriptor.intent.map { (intentType: $0.type, kind: KindOwnership(kind: descriptor.kind, owner: descriptor.owner)) }
        }
        guard let types = access.donationTypes(caller, declarations: declarations) else { return .everything }
        let shown = involved.filter { id in
            guard let kind = state.instances[id]?.kind, let type = state.descriptors[kind]?.intent?.type else { return false }
            return types.contains(type)
        }
        return DonationSight(instances: Set(shown)).narrowed(to: involved)
    }

    /// `value` as `call`'s caller may see it.
    func redacted<Value: DonationRedactable>(_ value: Value, for call: Call, among involved: Set<InstanceID>) -> Value {
        guard !call.trusted else { return value }
        return value.redacted(for: donationSight(call.caller, among: involved))
    }
}
