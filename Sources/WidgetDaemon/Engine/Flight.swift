import WidgetCore

/// The plans being stored, and the attempts waiting because a plan in flight touches what
/// they need (they are planned again once it is applied).
struct Flight {
    var ledger = ChangeLedger()
    var waiting: [Attempt] = []
    /// `applied`: applied before it was stored, so it holds nothing in the ledger.
    var storing: [UInt64: (plan: Plan, attempt: Attempt, applied: Bool)] = [:]
    /// Plans of this round of the loop not yet handed to the store.
    var outbox: [(ticket: UInt64, changes: [StoreChange])] = []
    var lastTicket: UInt64 = 0
    /// Who waits for no plan to be stored or waiting.
    var idleWaiters: [CheckedContinuation<Void, Never>] = []

    var isIdle: Bool { ledger.isIdle && waiting.isEmpty && storing.isEmpty }
}
