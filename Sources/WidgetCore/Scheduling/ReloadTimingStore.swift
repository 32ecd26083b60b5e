import Foundation

/// Where the scheduler reads and changes the reload timing of the instances it orders: the
/// records (`InstanceBook`). The scheduler holds no timing of its own; it finds an instance's
/// timing here once per call and writes what a call changes back here, through
/// `changeTiming`, the one way a timing changes.
public protocol ReloadTimingStore {
    /// Where the timing of `id` is, for the calls below (nil: unknown id), trying `hint` first
    /// (where it was found before; any number). Valid until the store next adds or removes an
    /// instance.
    func place(of id: InstanceID, hint: Int) -> Int?
    /// The timing at `place`, and since when no host has shown that instance.
    func reloadFacts(at place: Int) -> ReloadFacts
    /// Changes the timing at `place` (`change` is told since when that instance is hidden) and
    /// answers the facts after the change.
    @discardableResult
    mutating func changeTiming(at place: Int, _ change: (inout ReloadTiming, _ hiddenSince: Date?) -> Void) -> ReloadFacts
}
