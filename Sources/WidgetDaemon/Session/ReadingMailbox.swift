import Synchronization
import WidgetCore

/// Readings on their way from the watchers' thread to the engine's loop. A later reading of
/// the same thing replaces the one not yet taken, so however many signals a service sends,
/// at most one reading per key (`SessionTracker.ReadingKey`, a dozen) waits, and at most one
/// hop to the loop is outstanding: a flood of signals cannot queue work in front of the
/// control socket.
final class ReadingMailbox: Sendable {
    private struct Box {
        var order: [SessionTracker.ReadingKey] = []
        var latest: [SessionTracker.ReadingKey: ContextReading] = [:]
        var hopPending = false
    }

    private let box = Mutex(Box())

    /// Puts `readings` in; true when the caller must schedule a hop to take them (none is
    /// outstanding).
    func put(_ readings: [ContextReading]) -> Bool {
        guard !readings.isEmpty else { return false }
        return box.withLock { box in
            for reading in readings {
                let key = SessionTracker.key(reading)
                if box.latest.updateValue(reading, forKey: key) == nil { box.order.append(key) }
            }
            defer { box.hopPending = true }
            return !box.hopPending
        }
    }

    /// Everything waiting, in the order first put, and the hop done.
    func take() -> [ContextReading] {
        box.withLock { box in
            defer {
                box.order = []
                box.latest = [:]
                box.hopPending = false
            }
            return box.order.compactMap { box.latest[$0] }
        }
    }
}
