import Dispatch

extension DispatchTimeInterval {
    /// A Swift `Duration` for Dispatch's deadlines (the notifier and the status reporter both
    /// wait on their queues).
    init(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        self = .nanoseconds(Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000))
    }
}
