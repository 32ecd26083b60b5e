import Foundation
import WidgetCore
import WidgetProtocol

extension Engine {
    /// Makes the change a request asks for and answers it once the change is applied (on the
    /// virtual clock, once what it made due now has happened too). `make` works out the plan,
    /// with whatever the answer needs from planning; it runs again if the plan had to wait.
    /// `applyFirst`: what it makes due starts before it is stored (see `Attempt.applyFirst`).
    /// `answer` may refuse: what it answers about is gone (removed while the change was stored).
    func change<Made, Result>(
        _ call: Reply<Result>, applyFirst: Bool = false, _ make: @escaping () throws(RPCError) -> (Plan, Made),
        answer: @escaping (Made) throws(RPCError) -> Result
    ) {
        let settlement = time.clock.isVirtual ? Settlement() : nil
        var made: Made?
        var attempt = Attempt(
            make: { () throws(RPCError) in
                let (plan, value) = try make()
                made = value
                return plan
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
        _ call: Reply<Result>, _ make: @escaping () throws(RPCError) -> Plan, answer: @escaping () throws(RPCError) -> Result
    ) {
        change(call, { () throws(RPCError) in (try make(), ()) }, answer: { _ throws(RPCError) in try answer() })
    }

    /// Runs a state operation, turning its refusal into the request's error.
    func checked<T>(_ body: () throws(StateError) -> T) throws(RPCError) -> T {
        do {
            return try body()
        } catch {
            if case .unknownKind(let kind) = error { throw unknownKind(kind) }
            throw RPCError(error)
        }
    }
}
