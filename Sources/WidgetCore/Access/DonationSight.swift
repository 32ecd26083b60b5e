/// Whose donations a caller may see: the rule of `donations.list`, applied to every answer
/// and event that would otherwise show a donation's id, parameters or date (`explain`'s
/// candidates, `simulate`'s donations, `log`'s and rotation events' decisions).
///
/// A donation belongs to the intent type its instance's kind declares; a caller sees it when
/// `donations.list` would list that intent type to it (root, the daemon's uid and the host
/// group: every type; a kind's owner: the types its kinds declare; anyone else: none). The
/// sight is resolved to instances once per answer, so redacting is a pure function of the
/// value and the sight (`DonationRedactable`).
public struct DonationSight: Sendable, Hashable {
    /// The instances whose donations may be shown; nil: every instance.
    public var instances: Set<InstanceID>?

    public init(instances: Set<InstanceID>?) {
        self.instances = instances
    }

    public static let everything = DonationSight(instances: nil)
    public static let nothing = DonationSight(instances: [])

    public func shows(_ instance: InstanceID) -> Bool {
        instances?.contains(instance) ?? true
    }

    /// The same sight as far as `involved` goes: `everything` when it shows them all, so that
    /// callers who see the same of one event share one form of it.
    public func narrowed(to involved: Set<InstanceID>) -> DonationSight {
        guard let instances else { return self }
        let shown = involved.intersection(instances)
        return shown == involved ? .everything : DonationSight(instances: shown)
    }
}

extension AccessPolicy {
    /// The intent types whose donations `caller` may list, out of `declarations` (every
    /// (intent type, kind) a descriptor declares, with the kind's owner); nil: every type,
    /// those no kind declares too. Decided as `donations.list` decides, so the two never differ.
    public func donationTypes(
        _ caller: PeerCredentials, declarations: [(intentType: String, kind: KindOwnership)]
    ) -> Set<String>? {
        switch decide(caller, method: "donations.list", .callersKinds(.donate, all: declarations.map(\.kind))) {
        case .allowed:
            return nil
        case .allowedKinds(let kinds):
            let mine = Set(kinds)
            return Set(declarations.filter { mine.contains($0.kind.kind) }.map(\.intentType))
        case .refused:
            return []
        }
    }
}

/// A value that may show donations' ids, parameters or dates: `redacted(for:)` is the same
/// value with those of the instances `sight` does not show left out, the rest unchanged.
public protocol DonationRedactable {
    func redacted(for sight: DonationSight) -> Self
}

extension Array: DonationRedactable where Element: DonationRedactable {
    public func redacted(for sight: DonationSight) -> [Element] {
        guard sight.instances != nil else { return self }
        return map { $0.redacted(for: sight) }
    }
}
