import Foundation

/// An instance's timing and since when no host has shown it (`InstanceRecord.hiddenSince`):
/// all its reload's place in the schedule is worked out from.
public struct ReloadFacts: Sendable {
    public var timing: ReloadTiming
    public var hiddenSince: Date?

    public init(timing: ReloadTiming, hiddenSince: Date?) {
        self.timing = timing
        self.hiddenSince = hiddenSince
    }
}
