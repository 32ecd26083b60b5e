import Foundation
import WidgetCore
import WidgetProtocol

extension Engine {
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
