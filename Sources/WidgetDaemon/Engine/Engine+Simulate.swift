import Foundation
import WidgetCore
import WidgetProtocol

extension Engine {
    /// `simulate`: a dry run of the coming hours on a copy of the state, from the daemon's now.
    /// The copy is taken on the loop; the run and the encoding of its (large) answer happen off
    /// it, so a big simulation does not hold up other requests, and nothing it does reaches the
    /// state or the store. The answer is handed over on the loop, where a batch collects it.
    func simulate(_ params: SimulateParams, _ call: Call) {
        let hours = params.hours ?? SimulateParams.defaultHours
        guard hours.isFinite, hours > 0, hours <= SimulateParams.maxHours else {
            return call.fail(.invalidParams("params.hours: a number of hours above 0, at most \(Int(SimulateParams.maxHours))"))
        }
        let limit = params.limit ?? SimulateParams.defaultLimit
        guard limit > 0, limit <= 1_000_000 else { return call.fail(.invalidParams("params.limit: 1...1000000")) }
        let snapshot = state
        let start = now
        let loop = self.loop
        Task.detached {
            let report = snapshot.simulate(from: start, to: start.addingTimeInterval(hours * 3600), limit: limit)
            let answer = call.isNotification ? nil : Answers.success(call.id, report)
            loop.execute { call.reply(answer) }
        }
    }
}
