import Foundation
import WidgetCore
import WidgetProtocol

/// What a kind-scoped request names, as the router read it from its params.
enum AccessSubject: Sendable {
    case none
    /// `push`: the instance's kind.
    case instance(InstanceID)
    case kinds([String])
    /// `donate`: every kind that declares the intent type.
    case intentType(String)
    /// Names no kind: the caller's own.
    case callersKinds
}

extension Engine {
    /// The decision for a caller that is neither root nor the daemon's user, with the owners
    /// of the kinds the request touches as loaded now.
    func authorize(_ caller: PeerCredentials, method: RPCMethod, subject: AccessSubject) -> AccessDecision {
        let request: AccessRequest
        switch method.access {
        case .open:
            request = .read
        case .manage:
            request = .manage
        case .kinds(let verb):
            switch subject {
            case .none, .callersKinds:
                request = .callersKinds(verb, all: catalog.descriptors.values.map(ownership))
            case .instance(let id):
                // An unknown instance: the call fails as such and changes nothing. An instance
                // whose kind lost its descriptor has no owner.
                guard let kind = instances[id]?.kind else { return .allowed }
                request = .kinds(verb, [catalog[kind].map(ownership) ?? KindOwnership(kind: kind, owner: nil)])
            case .kinds(let kinds):
                request = .kinds(verb, kinds.compactMap { catalog[$0].map(ownership) })
            case .intentType(let type):
                let declaring = catalog.descriptors.values.filter { $0.intent?.type == type }.sorted { $0.kind < $1.kind }
                request = .intentType(type, declaredBy: declaring.map(ownership))
            }
        }
        return accessPolicy.decide(caller, method: method.rawValue, request)
    }

    /// Every (intent type, kind) pair the descriptors declare.
    func intentDeclarations() -> [(intentType: String, kind: String)] {
        catalog.descriptors.values.compactMap { descriptor in descriptor.intent.map { ($0.type, descriptor.kind) } }
    }

    private func ownership(_ descriptor: WidgetDescriptor) -> KindOwnership {
        KindOwnership(kind: descriptor.kind, owner: descriptor.owner)
    }
}
