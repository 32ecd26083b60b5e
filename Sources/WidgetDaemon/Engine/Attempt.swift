import WidgetCore
import WidgetProtocol

/// A change the engine tries to make: how to plan it, and what to do once it is applied or
/// refused. It is planned again when it had to wait for a plan in flight.
struct Attempt {
    // The closures are made and called in the engine's isolation.
    /// Works the plan out against the state as stored.
    let make: () throws(RPCError) -> Plan
    /// Right after the plan is applied, before what it made due is carried out.
    var onApply: (() -> Void)? = nil
    let applied: () -> Void
    /// Refused by the state, or not stored.
    let refused: (Refusal) -> Void
    /// Who waits for the consequences of the step (virtual clock), if anyone.
    let settlement: Settlement?
    /// Who waits for the launches the step makes due. The same, but for a launch's result:
    /// what comes due after it (a request another client made while it ran) is that
    /// request's own work.
    let launchSettlement: Settlement?
    /// Applied, told and carried out as soon as it is planned, and stored after; `applied`
    /// still runs only once it is stored. For the changes on a launch's path (a reload
    /// request, a provider's answer), whose store rows a restart can do without: a request
    /// not yet stored was not yet answered, and a timeline not yet stored is fetched again,
    /// because the request that asked for it stays stored until the timeline is. While
    /// writes fail, such changes are stored first like the others.
    var applyFirst = false
    /// An applied-first change the store then refused (`refused` otherwise).
    var unsaved: ((any Error) -> Void)? = nil
}

extension Attempt {
    /// A request's step: whoever waits for its consequences waits for its launches too.
    init(
        make: @escaping () throws(RPCError) -> Plan, applied: @escaping () -> Void, refused: @escaping (Refusal) -> Void,
        settlement: Settlement?
    ) {
        self.init(make: make, applied: applied, refused: refused, settlement: settlement, launchSettlement: settlement)
    }
}
