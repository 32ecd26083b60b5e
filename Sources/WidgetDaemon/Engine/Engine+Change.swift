import Foundation
import WidgetCore
import WidgetProtocol

extension Engine {
    /// The one change path a request takes: `plan` works the change out with the pure state
    /// (at the daemon's now), the plan is stored, applied and told, and the request is answered
    /// once it is applied (on the virtual clock, once what it made due now has happened too).
    /// `plan` runs again if the plan had to wait; what it returns beside the plan goes to
    /// `answer`. `applyFirst`: what it makes due starts before it is stored (see
    /// `Attempt.applyFirst`). `answer` may refuse: what it answers about is gone (removed
    /// while the change was stored).
    func change<Made, Result>(
        _ call: Reply<Result>, applyFirst: Bool = false,
        _ plan: @escaping (inout DaemonState, Date) throws(StateError) -> (Plan, Made),
        answer: @escaping (Made) throws(RPCError) -> Result
    ) {
        let settlement = time.clock.isVirtual ? Settlement() : nil
        // Set by `make` and read by `applied`, both run in the engine's isolation.
        nonisolated(unsafe) var made: Made?
        var attempt = Attempt(
            make: { () throws(RPCError) in
                do throws(StateError) {
                    let (planned, value) = try plan(&self.state, self.now)
                    made = value
                    return planned
                } catch {
                    throw self.requestError(error)
                }
            },
            applied: {
                guard let made else { return call.fail(RPCError(code: RPCError.Code.internalError, message: "internal error: no plan")) }
                do throws(RPCError) {
                    call.succeed(try answer(made), after: settlement)
                } catch {
                    call.fail(error, after: settlement)
                }
            },
            refused: { refusal in call.fail(refusal.error, after: settlement) },
            settlement: settlement)
        attempt.applyFirst = applyFirst
        self.attempt(attempt)
    }

    /// `change` for a plan that carries nothing else for the answer.
    func change<Result>(
        _ call: Reply<Result>, applyFirst: Bool = false, _ plan: @escaping (inout DaemonState, Date) throws(StateError) -> Plan,
        answer: @escaping () throws(RPCError) -> Result
    ) {
        change(call, applyFirst: applyFirst, { state, now throws(StateError) in (try plan(&state, now), ()) }, answer: {
            _ throws(RPCError) in try answer()
        })
    }

    /// Runs a state operation, turning its refusal into the request's error.
    func checked<T>(_ body: () throws(StateError) -> T) throws(RPCError) -> T {
        do {
            return try body()
        } catch {
            throw requestError(error)
        }
    }

    /// A state's refusal as the request's error (an unknown kind names where kinds are read).
    private func requestError(_ error: StateError) -> RPCError {
        if case .unknownKind(let kind) = error { return unknownKind(kind) }
        return RPCError(error)
    }
}
