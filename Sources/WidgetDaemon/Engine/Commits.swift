import WidgetCore

/// What the engine knows of its commits: the plans being stored, and how the store fares.
struct Commits {
    /// Plans being stored, and requests waiting for one of them.
    var flight = Flight()
    /// The last failed write, while writes fail.
    var storageFault: StorageFault?
    /// Stored rows left out because they do not decode: at start-up, and log rows since.
    var rowsLeftOut = 0

    /// What plans being stored add, for the limits: a new plan counts them as taken.
    var reserved: LimitReservations { flight.ledger.reserved }
}
