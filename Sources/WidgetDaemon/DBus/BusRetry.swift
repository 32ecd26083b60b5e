/// When a bus that could not be reached, or went away, is tried again: after `firstDelay`,
/// then after twice the previous wait each time, up to `longestDelay`, so a daemon left without
/// a bus wakes a few times an hour for it, not every second.
struct BusRetry {
    static let firstDelay: Double = 1
    static let longestDelay: Double = 256

    /// The wait the next `schedule` sets, in seconds.
    private(set) var delay = firstDelay
    /// When to try again, in CLOCK_MONOTONIC nanoseconds (`.max`: not before something asks).
    private(set) var at: UInt64

    init(at: UInt64) {
        self.at = at
    }

    var isDue: Bool { BusPoll.monotonicNanoseconds() >= at }

    /// The next try after the current wait, and a longer wait after that.
    mutating func schedule() {
        at = BusPoll.monotonicNanoseconds() + UInt64(delay * 1e9)
        delay = min(delay * 2, Self.longestDelay)
    }

    /// Connected: no try is due, and the next failure waits the first delay again.
    mutating func connected() {
        at = .max
        delay = Self.firstDelay
    }
}
