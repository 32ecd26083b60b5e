import Foundation

extension StackState {
    /// After the wall clock went back, dates later than `now` are treated as `now`: the top
    /// has been shown since `now` (its dwell starts again rather than waiting out the step),
    /// a user hold lasts at most `hold` from `now`, and rotations made "in the future" count
    /// against the hourly cap as made now. Without this a step back of an hour froze rotation
    /// for the hour plus the dwell. Returns whether anything changed.
    @discardableResult
    public mutating func clampDates(notAfter now: Date, hold: TimeInterval) -> Bool {
        let before = self
        if let since = topSince, since > now { topSince = now }
        if let until = holdUntil, until > now.addingTimeInterval(hold) { holdUntil = now.addingTimeInterval(hold) }
        if let last = rotations.last, last > now {
            rotations = rotations.map { min($0, now) }
        }
        return self != before
    }
}
