import Foundation

/// Where the scheduler reads and changes the reload timing of the instances it orders: the
/// records (`InstanceBook`). The scheduler holds no timing of its own, and no id: it reaches an
/// instance's timing by the record's handle, which also numbers its slot, and writes what a call
/// changes back here, through `changeTiming`, the one way a timing changes.
public protocol ReloadTimingStore {
    /// The handle of the record of `id` (nil: unknown id): the one id lookup.
    func handle(of id: InstanceID) -> RecordHandle?
    /// The id of the record of `handle`, which is in the store.
    func instanceID(of handle: RecordHandle) -> InstanceID
    /// The timing of the record of `handle`, and since when no host has shown that instance.
    func reloadFacts(of handle: RecordHandle) -> ReloadFacts
    /// Changes the timing of the record of `handle` (`change` is told since when that instance
    /// is hidden) and answers the facts after the change.
    @discardableResult
    mutating func changeTiming(of handle: RecordHandle, _ change: (inout ReloadTiming, _ hiddenSince: Date?) -> Void) -> ReloadFacts
}
