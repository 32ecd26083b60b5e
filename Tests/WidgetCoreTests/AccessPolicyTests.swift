import Foundation
import Testing
import WidgetCore
import WidgetProtocol

/// The decision table of AccessPolicy: who may call what, for which kinds.
@Suite("Access policy")
struct AccessPolicyTests {
    static let daemonUID: UInt32 = 990
    static let hostGID: UInt32 = 500
    static let appsGID: UInt32 = 600
    static let policy = AccessPolicy(daemonUID: daemonUID, hostGroupName: "widgetd", hostGID: hostGID)

    static let root = PeerCredentials(uid: 0, gid: 0, pid: 1)
    static let daemon = PeerCredentials(uid: daemonUID, gid: daemonUID, pid: 2)
    static let alice = PeerCredentials(uid: 1001, gid: 1001, pid: 3)
    static let host = PeerCredentials(uid: 1002, gid: 1002, pid: 4, groups: [hostGID])
    static let hostByPrimary = PeerCredentials(uid: 1005, gid: hostGID, pid: 7)
    static let appMember = PeerCredentials(uid: 1003, gid: 1003, pid: 5, groups: [100, appsGID])
    static let other = PeerCredentials(uid: 1004, gid: 1004, pid: 6, groups: [100])

    static let aliceKind = KindOwnership(kind: "a.alice", owner: .user(name: "alice", uid: 1001))
    static let appsKind = KindOwnership(kind: "a.apps", owner: .group(name: "apps", gid: appsGID))
    static let unowned = KindOwnership(kind: "a.none", owner: nil)
    static let all = [aliceKind, appsKind, unowned]

    func decide(_ caller: PeerCredentials, _ method: any MethodSpec.Type, _ request: AccessRequest) -> AccessDecision {
        Self.policy.decide(caller, method: method.name, request)
    }

    func allowed(_ decision: AccessDecision) -> Bool {
        if case .refused = decision { return false }
        return true
    }

    @Test func rootAndTheDaemonsOwnUserMayDoEverything() {
        for caller in [Self.root, Self.daemon] {
            #expect(decide(caller, Methods.Add.self, .manage) == .allowed)
            for verb in KindVerb.allCases {
                #expect(decide(caller, Methods.Push.self, .kinds(verb, Self.all)) == .allowed)
                #expect(decide(caller, Methods.ReloadAllTimelines.self, .callersKinds(verb, all: Self.all)) == .allowed)
            }
            #expect(decide(caller, Methods.Donate.self, .intentType("T", declaredBy: [Self.aliceKind])) == .allowed)
            #expect(decide(caller, Methods.Donate.self, .intentType("Nobody", declaredBy: [])) == .allowed)
        }
    }

    @Test func readsAreOpenToAnyone() {
        #expect(decide(Self.other, Methods.List.self, .read) == .allowed)
    }

    @Test func theHostGroupManagesAndReloadsAnythingButPushesOnlyUnownedKinds() {
        for host in [Self.host, Self.hostByPrimary] {
            #expect(decide(host, Methods.Add.self, .manage) == .allowed)
            #expect(decide(host, Methods.ReloadTimelines.self, .kinds(.reload, Self.all)) == .allowed)
            #expect(decide(host, Methods.InvalidateConfigurationRecommendations.self, .kinds(.invalidate, [Self.aliceKind])) == .allowed)
            #expect(decide(host, Methods.Push.self, .kinds(.push, [Self.unowned])) == .allowed)
            #expect(!allowed(decide(host, Methods.Push.self, .kinds(.push, [Self.aliceKind]))))
            #expect(decide(host, Methods.Donate.self, .intentType("Free", declaredBy: [Self.unowned])) == .allowed)
            #expect(decide(host, Methods.Donate.self, .intentType("Nobody", declaredBy: [])) == .allowed)
            #expect(!allowed(decide(host, Methods.Donate.self, .intentType("Mine", declaredBy: [Self.aliceKind]))))
            #expect(decide(host, Methods.ReloadAllTimelines.self, .callersKinds(.reload, all: Self.all)) == .allowed)
        }
    }

    @Test func anOwnerActsForItsKindsOnly() {
        for verb in KindVerb.allCases {
            #expect(decide(Self.alice, Methods.Push.self, .kinds(verb, [Self.aliceKind])) == .allowed)
            #expect(!allowed(decide(Self.alice, Methods.Push.self, .kinds(verb, [Self.unowned]))))
            #expect(!allowed(decide(Self.alice, Methods.Push.self, .kinds(verb, [Self.aliceKind, Self.appsKind]))))
        }
        #expect(!allowed(decide(Self.alice, Methods.Add.self, .manage)))
        #expect(!allowed(decide(Self.alice, Methods.StackCreate.self, .manage)))
        #expect(decide(Self.alice, Methods.Donate.self, .intentType("Mine", declaredBy: [Self.aliceKind])) == .allowed)
        // An intent type another kind declares too is not alice's alone.
        #expect(!allowed(decide(Self.alice, Methods.Donate.self, .intentType("Shared", declaredBy: [Self.aliceKind, Self.unowned]))))
        #expect(!allowed(decide(Self.alice, Methods.Donate.self, .intentType("Nobody", declaredBy: []))))
    }

    @Test func aGroupOwnerIsAnyMemberOfTheGroup() {
        #expect(decide(Self.appMember, Methods.Push.self, .kinds(.push, [Self.appsKind])) == .allowed)
        #expect(!allowed(decide(Self.other, Methods.Push.self, .kinds(.push, [Self.appsKind]))))
        let primary = PeerCredentials(uid: 1010, gid: Self.appsGID, pid: 9)
        #expect(decide(primary, Methods.ReloadTimelines.self, .kinds(.reload, [Self.appsKind])) == .allowed)
    }

    @Test func aRequestThatNamesNoKindActsOnTheCallersOwnKinds() {
        #expect(decide(Self.alice, Methods.ReloadAllTimelines.self, .callersKinds(.reload, all: Self.all)) == .allowedKinds(["a.alice"]))
        #expect(decide(Self.appMember, Methods.DonationsDelete.self, .callersKinds(.donate, all: Self.all)) == .allowedKinds(["a.apps"]))
        guard case .refused(let refusal) = decide(Self.other, Methods.ReloadAllTimelines.self, .callersKinds(.reload, all: Self.all)) else {
            Issue.record("a caller that owns nothing reloaded all")
            return
        }
        #expect(refusal.description.contains("owner of a kind"))
    }

    @Test func anyoneElseIsRefusedEverythingThatChangesState() {
        let managing = Methods.all.filter { $0.access == .manage }
        #expect(!managing.isEmpty)
        for method in managing {
            #expect(!allowed(decide(Self.other, method, .manage)), "\(method)")
        }
        for verb in KindVerb.allCases {
            #expect(!allowed(decide(Self.other, Methods.Push.self, .kinds(verb, [Self.unowned]))))
            #expect(!allowed(decide(Self.other, Methods.Push.self, .kinds(verb, [Self.aliceKind]))))
        }
    }

    @Test func aRefusalNamesTheMethodKindUidAndWhoMay() {
        guard case .refused(let refusal) = decide(Self.other, Methods.Push.self, .kinds(.push, [Self.aliceKind])) else {
            Issue.record("not refused")
            return
        }
        #expect(refusal.method == "push")
        #expect(refusal.kind == "a.alice")
        #expect(refusal.uid == 1004)
        #expect(refusal.allowed == ["root", "uid 990 (widgetd's own)", "user 'alice' (uid 1001), the kind's owner"])
        #expect(refusal.description == """
            permission denied: uid 1004 may not call 'push' for kind 'a.alice'; allowed: root, uid 990 (widgetd's own), \
            user 'alice' (uid 1001), the kind's owner
            """)
        let error = RPCError.permissionDenied(refusal)
        #expect(error.code == -32013)
        #expect(error.isPermissionDenied)
        guard case .refused(let manage) = decide(Self.alice, Methods.Add.self, .manage) else { return }
        #expect(manage.kind == nil)
        #expect(manage.allowed.last == "members of the host group 'widgetd' (gid 500)")
        // A reload names the host group too: it may reload any kind.
        guard case .refused(let reload) = decide(Self.other, Methods.ReloadTimelines.self, .kinds(.reload, [Self.appsKind])) else { return }
        #expect(reload.allowed.contains("group 'apps' (gid 600), the kind's owner"))
        #expect(reload.allowed.contains("members of the host group 'widgetd' (gid 500)"))
    }

    @Test func withoutAHostGroupOnlyRootAndTheDaemonManage() {
        let policy = AccessPolicy(daemonUID: Self.daemonUID, hostGroupName: "widgetd", hostGID: nil)
        #expect(!policy.mayManage(Self.host))
        #expect(policy.mayManage(Self.daemon))
        guard case .refused(let refusal) = policy.decide(Self.host, method: "add", .manage) else {
            Issue.record("not refused")
            return
        }
        #expect(refusal.allowed.last == "members of the host group 'widgetd' (no such group here)")
    }

    @Test func donationsAnOwnerMayDeleteAreOfIntentTypesOnlyItsKindsDeclare() {
        let declarations = [("Mine", "a.alice"), ("Shared", "a.alice"), ("Shared", "a.none"), ("Theirs", "a.apps")]
            .map { (intentType: $0.0, kind: $0.1) }
        #expect(AccessPolicy.intentTypes(within: ["a.alice"], declarations: declarations) == ["Mine"])
        #expect(AccessPolicy.intentTypes(within: ["a.alice", "a.none"], declarations: declarations) == ["Mine", "Shared"])
    }

    /// A user service: its uid and root connect, nobody else, the host group and a kind's
    /// owner included; the daemon's uid owns every kind.
    @Test func aUserServiceLetsInItsUserAndRootOnly() {
        let single = AccessPolicy(daemonUID: Self.daemonUID, hostGroupName: "widgetd", hostGID: Self.hostGID, singleUser: true)
        #expect(single.mayConnect(Self.daemon) && single.mayConnect(Self.root))
        for caller in [Self.alice, Self.host, Self.hostByPrimary, Self.appMember, Self.other, .unidentified] {
            #expect(!single.mayConnect(caller), "uid \(caller.uid)")
        }
        #expect(single.hostGID == nil && !single.mayManage(Self.host))
        #expect(single.decide(Self.daemon, method: "push", .kinds(.push, Self.all)) == .allowed)
        #expect(Self.policy.mayConnect(Self.other))
    }
}
