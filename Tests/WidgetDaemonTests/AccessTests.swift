import Foundation
import Testing
import WidgetCore
import WidgetProtocol
@testable import WidgetDaemon
@testable import WidgetTestSupport

/// Authorization in the engine's step: the caller a connection reported, the owners the
/// descriptors name, and what a refused request leaves behind (nothing).
@Suite struct AccessTests {
    static let alice = PeerCredentials(uid: 1001, gid: 1001, pid: 11)
    static let host = PeerCredentials(uid: 1002, gid: 1002, pid: 12, groups: [500])
    static let other = PeerCredentials(uid: 1003, gid: 1003, pid: 13)

    /// An engine with `k.alice` (owned by alice, intent type AliceIntent) and `k.free` (no
    /// owner, intent type FreeIntent); the daemon runs as uid 990, the host group is gid 500.
    static func harness() throws -> Harness {
        try Harness(
            answer: #"{"entries":[],"policy":"never"}"#,
            descriptors: #"""
                [{"kind":"k.alice","supportedFamilies":["systemSmall"],"provider":{"exec":["/bin/true"]},
                  "owner":{"user":"alice"},"intent":{"type":"AliceIntent","parameters":[]}},
                 {"kind":"k.free","supportedFamilies":["systemSmall"],"provider":{"exec":["/bin/true"]},
                  "intent":{"type":"FreeIntent","parameters":[]}}]
                """#,
            access: AccessPolicy(daemonUID: 990, hostGroupName: "hosts", hostGID: 500),
            accounts: AccountTable(users: ["alice": 1001]))
    }

    @Test func aRefusedRequestIsAnsweredWithWhoMayAndChangesNothing() async throws {
        let harness = try Self.harness()
        let refused = await harness.call("add", #"{"kind":"k.free","family":"systemSmall"}"#, as: Self.alice)
        #expect(refused.errorCode == -32013)
        #expect(refused.errorMessage == """
            permission denied: uid 1001 may not call 'add'; allowed: root, uid 990 (widgetd's own), \
            members of the host group 'hosts' (gid 500)
            """)
        let data = (refused["error"] as? [String: Any])?["data"] as? [String: Any]
        #expect(data?["method"] as? String == "add")
        #expect(data?["uid"] as? Int == 1001)
        #expect(harness.store.applied.isEmpty)
        // Reads stay open.
        #expect((await harness.call("list", as: Self.other)).result is [Any])
    }

    @Test func theOwnerPushesToItsKindAndNoOther() async throws {
        let harness = try Self.harness()
        let mine = try await harness.add("k.alice", as: Self.host)
        let free = try await harness.add("k.free", as: Self.host)
        let timeline = #"{"entries":[{"date":"2026-01-05T08:00:00Z","content":{"n":1}}],"policy":"never"}"#
        #expect((await harness.call("push", #"{"id":"\#(mine)","timeline":\#(timeline)}"#, as: Self.alice)).result != nil)
        let refused = await harness.call("push", #"{"id":"\#(free)","timeline":\#(timeline)}"#, as: Self.alice)
        #expect(refused.errorCode == -32013)
        #expect(refused.errorMessage?.contains("for kind 'k.free'") == true)
        // The host pushes to the kind without owner, not to alice's.
        #expect((await harness.call("push", #"{"id":"\#(free)","timeline":\#(timeline)}"#, as: Self.host)).result != nil)
        #expect((await harness.call("push", #"{"id":"\#(mine)","timeline":\#(timeline)}"#, as: Self.host)).errorCode == -32013)
        // An unknown instance is an unknown instance, whoever asks.
        #expect((await harness.call("push", #"{"id":"deadbeef","timeline":\#(timeline)}"#, as: Self.other)).errorCode == -32002)
    }

    @Test func reloadAllFromAnOwnerReloadsItsOwnKindsOnly() async throws {
        let harness = try Self.harness()
        let mine = try await harness.add("k.alice", as: Self.host)
        let free = try await harness.add("k.free", as: Self.host)
        let own = await harness.call("reloadAllTimelines", as: Self.alice)
        #expect((own.result as? [String: Any])?["instances"] as? [String] == [mine])
        let all = await harness.call("reloadAllTimelines", as: Self.host)
        #expect(Set((all.result as? [String: Any])?["instances"] as? [String] ?? []) == [mine, free])
        #expect((await harness.call("reloadAllTimelines", as: Self.other)).errorCode == -32013)
        #expect((await harness.call("reloadTimelines", #"{"kinds":["k.alice","k.free"]}"#, as: Self.alice)).errorCode == -32013)
    }

    @Test func donationsFollowTheKindsThatDeclareTheirIntentType() async throws {
        let harness = try Self.harness()
        #expect((await harness.call("donate", #"{"intentType":"AliceIntent","id":"a"}"#, as: Self.alice)).result != nil)
        #expect((await harness.call("donate", #"{"intentType":"FreeIntent","id":"f"}"#, as: Self.alice)).errorCode == -32013)
        #expect((await harness.call("donate", #"{"intentType":"FreeIntent","id":"f"}"#, as: Self.host)).result != nil)
        #expect((await harness.call("donate", #"{"intentType":"AliceIntent"}"#, as: Self.host)).errorCode == -32013)
        // alice's "delete all" deletes hers only; the FreeIntent donation stays.
        let deleted = await harness.call("donations.delete", #"{"all":true}"#, as: Self.alice)
        #expect((deleted.result as? [String: Any])?["deleted"] as? Int == 1)
        let rest = await harness.call("donations.delete", #"{"all":true}"#, as: Self.host)
        #expect((rest.result as? [String: Any])?["deleted"] as? Int == 1)
    }

    @Test func aStackShownToSomeoneOutsideTheHostGroupIsNotCountedAsSeen() async throws {
        let harness = try Self.harness()
        let id = try await harness.add("k.free", as: Self.host)
        _ = await harness.call("stack.create", #"{"name":"home"}"#, as: Self.host)
        _ = await harness.call("stack.add", #"{"name":"home","instances":["\#(id)"]}"#, as: Self.host)
        #expect((await harness.call("stack.show", #"{"name":"home"}"#, as: Self.other)).result != nil)
        #expect(await harness.inspect { $0.state.instances[id]?.lastVisible } == nil)
        #expect((await harness.call("stack.show", #"{"name":"home"}"#, as: Self.host)).result != nil)
        #expect(await harness.inspect { $0.state.instances[id]?.lastVisible } != nil)
    }

    @Test func peerGroupsAreTheSortedPrefixOfTheBuffer() {
        #expect(PeerCredentialReader.sortedPrefix([4, 27, 100, 0, 0, 0]) == [4, 27, 100])
        #expect(PeerCredentialReader.sortedPrefix([0, 27, 0, 0]) == [0, 27])
        #expect(PeerCredentialReader.sortedPrefix([0, 0, 0, 0]) == [0])
        #expect(PeerCredentialReader.sortedPrefix([]) == [])
    }
}
