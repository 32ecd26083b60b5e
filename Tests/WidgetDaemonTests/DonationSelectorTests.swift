import Testing
import WidgetCore
import WidgetProtocol
@testable import WidgetDaemon

/// `donations.delete` names exactly one of an id, a group or all; anything else is refused
/// before a plan is made.
@Suite struct DonationSelectorTests {
    @Test func eachFormNamesItsDonations() throws {
        #expect(try DonationsDeleteParams(id: "d1").selector() == .id("d1"))
        #expect(try DonationsDeleteParams(group: "g").selector() == .group("g"))
        #expect(try DonationsDeleteParams(all: true).selector() == .all)
    }

    @Test(arguments: [
        DonationsDeleteParams(), DonationsDeleteParams(all: false), DonationsDeleteParams(id: "d1", group: "g"),
        DonationsDeleteParams(id: "d1", all: true), DonationsDeleteParams(group: "g", all: true),
    ])
    func anyOtherFormIsRefused(_ params: DonationsDeleteParams) {
        #expect(throws: RPCError.self) { try params.selector() }
    }
}
