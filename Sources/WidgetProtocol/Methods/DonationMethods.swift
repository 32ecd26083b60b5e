import Foundation
import WidgetCore

// Intent donations: what the user looked at in apps, which Smart Stacks rank by.

extension Methods {
    /// The methods of donations.
    static let donations: [any MethodSpec.Type] = [Donate.self, DonationsDelete.self, DonationsList.self]

    public enum Donate: MethodSpec {
        public typealias Params = DonateParams
        public typealias Result = DonateResult
        public static let name = "donate"
        public static let access = MethodAccess.kinds(.donate)
        public static let summary = "An intent donation (the user looked at something in an app)."
        public static var example: DonateParams {
            DonateParams(
                intentType: "ShowStock", parameters: ["symbol": .string("AAPL")], date: Date(timeIntervalSince1970: 1_767_600_000),
                id: "d1", group: "stocks")
        }
        public static func subject(of params: DonateParams) -> AccessSubject { .intentType(params.intentType) }
    }

    public enum DonationsDelete: MethodSpec {
        public typealias Params = DonationsDeleteParams
        public typealias Result = DonationsDeleteResult
        public static let name = "donations.delete"
        public static let access = MethodAccess.kinds(.donate)
        public static let summary = "Deletes donations by id, by group, or all; from a kind's owner, only its kinds'."
        public static var example: DonationsDeleteParams { DonationsDeleteParams(id: "d1", group: "stocks", all: true) }
        public static func subject(of params: DonationsDeleteParams) -> AccessSubject { .callersKinds }
    }

    public enum DonationsList: MethodSpec {
        public typealias Params = DonationsListParams
        public typealias Result = [Donation]
        public static let name = "donations.list"
        public static let access = MethodAccess.kinds(.donate)
        public static let summary = "The donations retained, oldest first; a kind's owner gets those of its kinds' intent types."
        public static var example: DonationsListParams { DonationsListParams(intentType: "ShowStock") }
        public static func subject(of params: DonationsListParams) -> AccessSubject { .callersKinds }
    }
}
