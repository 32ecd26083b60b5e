import Foundation
import Logging
import WidgetCore
import WidgetProtocol

extension Engine {
    /// Whether the caller may make this call, decided in the same step as the work, with the
    /// owners of the kinds it touches as loaded now. A refusal is answered (with who may) and
    /// logged once; a request that names no kind gets the caller's own kinds as its scope.
    func authorized(_ call: inout Call, _ method: String, _ access: MethodAccess, _ subject: AccessSubject) -> Bool {
        guard !call.trusted else { return true }
        switch decide(call.caller, method: method, access: access, subject: subject) {
        case .allowed:
            return true
        case .allowedKinds(let kinds):
            call.scope = Set(kinds)
            return true
        case .refused(let refusal):
            logRefusal(refusal, caller: call.caller)
            call.fail(.permissionDenied(refusal))
            return false
        }
    }

    private func decide(_ caller: PeerCredentials, method: String, access: MethodAccess, subject: AccessSubject) -> AccessDecision {
        let descriptors = state.descriptors
        let request: AccessRequest
        switch access {
        case .open:
            request = .read
        case .manage:
            request = .manage
        case .kinds(let verb):
            switch subject {
            case .none, .callersKinds:
                request = .callersKinds(verb, all: descriptors.values.map(Self.ownership))
            case .kinds(let kinds, let ids):
                // An unknown instance: the call fails as such and changes nothing. An instance
                // whose kind lost its descriptor has no owner. A failed instance (a stored row of it
                // does not decode) is its stored kind's, so that only who may remove it can.
                let instanceKinds = ids.compactMap { state.instances[$0]?.kind ?? state.failedInstances[$0]?.kind }
                if kinds.isEmpty, instanceKinds.isEmpty { return .allowed }
                var named = kinds.compactMap { descriptors[$0].map(Self.ownership) }
                for kind in Set(instanceKinds).subtracting(kinds).sorted() {
                    named.append(descriptors[kind].map(Self.ownership) ?? KindOwnership(kind: kind, owner: nil))
                }
                request = .kinds(verb, named)
            case .intentType(let type):
                let declaring = descriptors.values.filter { $0.intent?.type == type }.sorted { $0.kind < $1.kind }
                request = .intentType(type, declaredBy: declaring.map(Self.ownership))
            }
        }
        return access == .open ? .allowed : self.access.decide(caller, method: method, request)
    }

    private static func ownership(_ descriptor: WidgetDescriptor) -> KindOwnership {
        KindOwnership(kind: descriptor.kind, owner: descriptor.owner)
    }

    /// Each refusal once, with the fields a journal query wants.
    private func logRefusal(_ refusal: AccessRefusal, caller: PeerCredentials) {
        var metadata: Logger.Metadata = [
            "uid": "\(caller.uid)", "gid": "\(caller.gid)", "pid": "\(caller.pid)", "method": "\(refusal.method)",
            "allowed": "\(refusal.allowed.joined(separator: "; "))",
        ]
        if let kind = refusal.kind { metadata["kind"] = "\(kind)" }
        if let type = refusal.intentType { metadata["intent_type"] = "\(type)" }
        io.logger.warning("permission denied", metadata: metadata)
    }

    /// nil when `caller` may connect; else the refusal it is answered with.
    func connectionRefusal(_ caller: PeerCredentials) -> AccessRefusal? {
        if access.mayConnect(caller) { return nil }
        let allowed = daemonUID == 0 ? ["root"] : ["root", "uid \(daemonUID) (the user this widgetd serves)"]
        return AccessRefusal(method: "connect", kind: nil, intentType: nil, uid: caller.uid, allowed: allowed)
    }

    /// How the connection slots treat `caller` (`ConnectionGate`), with the host group as
    /// configured now.
    func connectionStanding(_ caller: PeerCredentials) -> ConnectionGate.Standing {
        if access.isUnrestricted(caller) { return .unrestricted }
        return access.isHost(caller) ? .host : .other
    }

    /// Whether `caller` counts as a host: its `stack show` means the stack's top is seen.
    func mayManage(_ caller: PeerCredentials) -> Bool {
        access.mayManage(caller)
    }
}
