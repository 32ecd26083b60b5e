import WidgetCore
import WidgetProtocol

/// Reads of the widgets directories: at most one runs (on the engine's `descriptorReader`),
/// and the asks that come meanwhile share the one read that follows it, however many there
/// are (a burst of `widgets.reload`, a watch event and a SIGHUP): the queue is bounded.
struct DescriptorReads {
    /// One read asked for: why, the settings a SIGHUP brought, and who waits for its changes.
    struct Ask {
        var trigger: DescriptorReadTrigger
        var settings: DaemonSettings?
        var waiting: [@Sendable (DescriptorChanges) -> Void]

        /// Another ask joins this one: the weightier trigger (a SIGHUP takes everything in
        /// again; a request is logged at info) and the newest settings count.
        mutating func merge(_ other: Ask) {
            if other.trigger.weight > trigger.weight { trigger = other.trigger }
            if let settings = other.settings { self.settings = settings }
            waiting += other.waiting
        }
    }

    var running = false
    var next: Ask?

    /// The ask to start now, or nil when a read runs (the ask then waits in `next`).
    mutating func ask(_ ask: Ask) -> Ask? {
        guard running else {
            running = true
            return ask
        }
        if next == nil { next = ask } else { next!.merge(ask) }
        return nil
    }

    /// A read finished: the ask to start next, if any came meanwhile.
    mutating func finished() -> Ask? {
        guard let ask = next else {
            running = false
            return nil
        }
        next = nil
        return ask
    }
}

extension DescriptorReadTrigger {
    fileprivate var weight: Int {
        switch self {
        case .watch: 0
        case .request: 1
        case .signal: 2
        }
    }
}
