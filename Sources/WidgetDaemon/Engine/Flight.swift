import WidgetCore
import WidgetProtocol

/// A change the engine tries to make: how to plan it, and what to do once it is applied or
/// refused. It is planned again when it had to wait for a plan in flight.
struct Attempt {
    // The closures are made and called in the engine's isolation.
    /// Works the plan out against the state as stored.
    let make: () throws(RPCError) -> Plan
    let applied: () -> Void
    /// Refused by the state, or not stored.
    let refused: (Refusal) -> Void
    /// Who waits for the consequences of the step (virtual clock), if anyone.
    let settlement: Settlement?
}

/// The plans being stored, and the attempts waiting because a plan in flight touches what
/// they need (they are planned again once it is applied).
struct Flight {
    var ledger = ChangeLedger()
    var waiting: [Attempt] = []
    var storing: [UInt64: (plan: Plan, attempt: Attempt)] = [:]
    var lastTicket: UInt64 = 0
    /// Who waits for no plan to be stored or waiting.
    var idleWaiters: [CheckedContinuation<Void, Never>] = []

    var isIdle: Bool { ledger.isIdle && waiting.isEmpty }
}
