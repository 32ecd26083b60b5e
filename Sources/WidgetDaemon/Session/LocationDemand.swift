import Synchronization

/// Whether a location clue was in use at the last look; `update` says when that changed.
final class LocationDemand: Sendable {
    private let wanted = Mutex(false)

    func update(_ now: Bool) -> Bool {
        wanted.withLock { previous in
            defer { previous = now }
            return previous != now
        }
    }
}
