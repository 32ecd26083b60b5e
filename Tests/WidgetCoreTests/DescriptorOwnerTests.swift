import Foundation
import Testing
import WidgetCore

/// A descriptor's `owner`: its shape, and names resolved when the descriptor is parsed.
@Suite("Descriptor owner")
struct DescriptorOwnerTests {
    static let accounts = AccountTable(users: ["alice": 1001], groups: ["apps": 600])

    func parse(_ owner: String) throws(DescriptorProblem) -> WidgetDescriptor {
        let json = #"{"kind": "k", "supportedFamilies": ["systemSmall"], "owner": \#(owner)}"#
        return try DescriptorParser.parse(Data(json.utf8), path: "/w/k.json", accounts: Self.accounts)[0]
    }

    func problem(_ owner: String) -> String? {
        do {
            _ = try parse(owner)
            return nil
        } catch {
            return error.reason
        }
    }

    @Test func aUserOrAGroupResolvesToItsId() throws {
        #expect(try parse(#"{"user": "alice"}"#).owner == .user(name: "alice", uid: 1001))
        #expect(try parse(#"{"group": "apps"}"#).owner == .group(name: "apps", gid: 600))
        let plain = try DescriptorParser.parse(Data(#"{"kind": "k", "supportedFamilies": ["systemSmall"]}"#.utf8), path: "k.json")
        #expect(plain[0].owner == nil)
    }

    @Test(arguments: [
        (#"{"user": "bob"}"#, "$.owner.user: no user named 'bob'"),
        (#"{"group": "staff"}"#, "$.owner.group: no group named 'staff'"),
        (#""alice""#, #"$.owner: expected {"user": NAME} or {"group": NAME}"#),
        (#"{}"#, #"$.owner: expected {"user": NAME} or {"group": NAME}"#),
        (#"{"user": "alice", "group": "apps"}"#, #"$.owner: expected {"user": NAME} or {"group": NAME}"#),
        (#"{"uid": 1001}"#, "$.owner.uid: unknown key (known: user, group)"),
        (#"{"usr": "alice"}"#, #"$.owner.usr: unknown key; did you mean "user"?"#),
        (#"{"user": 1001}"#, "$.owner.user: expected a user name"),
        (#"{"group": ""}"#, "$.owner.group: expected a group name"),
        (#"{"user": "a b"}"#, "$.owner.user: expected a user name"),
    ])
    func badOwnersAreRejectedWithTheField(owner: String, reason: String) {
        #expect(problem(owner) == reason)
    }

    @Test func theOwnerEncodesWithItsResolvedId() throws {
        let data = try WidgetJSON.encoder.encode(KindOwner.user(name: "alice", uid: 1001))
        #expect(String(decoding: data, as: UTF8.self) == #"{"uid":1001,"user":"alice"}"#)
        #expect(try WidgetJSON.decoder.decode(KindOwner.self, from: data) == .user(name: "alice", uid: 1001))
    }

    @Test func accessSettingsNameTheHostGroup() throws {
        #expect(DaemonSettings().access.hostGroup == "widgetd")
        #expect(try DaemonSettings.parse("[access]\nhost-group = desktop-hosts\n").access.hostGroup == "desktop-hosts")
        #expect(throws: SettingsError.self) { try DaemonSettings.parse("[access]\nhost-group = a:b\n") }
        #expect(throws: SettingsError.self) { try DaemonSettings.parse("[access]\nowner = x\n") }
        #expect(DaemonSettings().access.hostGroupMayBeMissing)
        #expect(try !DaemonSettings.parse("[access]\nhost-group = desktop-hosts\n").access.hostGroupMayBeMissing)
    }
}
