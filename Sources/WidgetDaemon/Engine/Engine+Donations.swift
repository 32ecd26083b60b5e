import Foundation
import WidgetCore
import WidgetProtocol

extension Engine {
    func donate(_ params: DonateParams, _ call: Reply<DonateResult>) {
        change(call, { () throws(RPCError) in
            let donation = Donation(
                intentType: params.intentType, parameters: params.parameters ?? [:], date: params.date ?? self.now,
                id: params.id, group: params.group)
            let reserved = self.commits.flight.ledger.reserved
            return try self.checked { () throws(StateError) in try self.state.planDonate(donation, at: self.now, reserved: reserved) }
        }, answer: { matched in DonateResult(matched: matched) })
    }

    /// Deletes donations; from a kind's owner, only those of intent types no other kind declares.
    func deleteDonations(_ params: DonationsDeleteParams, _ call: Reply<DonationsDeleteResult>) {
        let selector: DaemonState.DonationSelector
        switch (params.id, params.group, params.all ?? false) {
        case (let id?, nil, false): selector = .id(id)
        case (nil, let group?, false): selector = .group(group)
        case (nil, nil, true): selector = .all
        default: return call.fail(.invalidParams("params: give exactly one of id, group or all"))
        }
        change(call, { () throws(RPCError) in
            self.state.planDeleteDonations(selector, onlyKinds: call.scope, at: self.now)
        }, answer: { deleted in DonationsDeleteResult(deleted: deleted) })
    }

    /// The donations retained, oldest first; a kind's owner sees those of its kinds' intent types.
    func listDonations(_ params: DonationsListParams, _ call: Reply<[Donation]>) {
        call.succeed(state.listDonations(intentType: params.intentType, onlyKinds: call.scope))
    }

    /// Rotation decisions, oldest first, read from the store; their candidates' donations as
    /// the caller may see them, decided once they are read.
    func decisionLog(_ params: LogParams, _ call: Reply<[RotationDecision]>) {
        let limit = params.limit ?? 100
        guard limit > 0, limit <= 100_000 else { return call.fail(.invalidParams("params.limit: 1...100000")) }
        let store = self.io.store
        Task {
            do {
                let decisions = try await store.decisions(stack: params.stack, since: params.since, limit: limit)
                let involved = decisions.reduce(into: Set<InstanceID>()) { $0.formUnion($1.donationInstances) }
                call.succeed(self.redacted(decisions, for: call.call, among: involved))
                // Log rows that do not decode are left out of the answer, and told once here.
                for row in store.takeSkippedRows() {
                    commits.rowsLeftOut += 1
                    log([row.note])
                }
            } catch {
                call.fail(.storageFailure("\(error)"))
            }
        }
    }
}
