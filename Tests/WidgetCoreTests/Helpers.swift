import Foundation
// @testable for internal helpers (ReloadMember also has a public initialiser now).
@testable import WidgetCore

/// A fixed epoch: 2026-01-05T08:00:00Z. Every test builds its dates from it, never from the wall clock.
let t0 = Date(timeIntervalSince1970: 1_767_600_000)

/// A deterministic RNG (SplitMix64), so "random" schedules are the same on every run.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// An entry whose content names it, so a test can tell equal-date entries apart.
func entry(_ date: Date, _ name: String) -> TimelineEntry {
    TimelineEntry(date: date, content: .string(name))
}

func contentName(_ entry: TimelineEntry?) -> String? {
    entry?.content.stringValue
}

func makeScheduler(window: TimeInterval = 60, limit: Int = 70, spacing: TimeInterval = 300, budget enabled: Bool = true)
    -> ReloadScheduler
{
    ReloadScheduler(budget: ReloadBudget(limit: limit, spacing: spacing, enabled: enabled), coalescingWindow: window)
}

extension SchedulerEvent {
    var batch: ReloadBatch? {
        if case .reload(let batch) = self { return batch }
        return nil
    }

    var entryChange: (InstanceID, Date)? {
        if case .entryChange(let id, let date) = self { return (id, date) }
        return nil
    }
}

/// The member a batch is expected to hold.
func member(_ id: InstanceID, _ reason: ReloadReason, _ wanted: Date) -> ReloadMember {
    ReloadMember(instance: id, reason: reason, wanted: wanted)
}

extension ReloadBatch {
    var ids: [InstanceID] { members.map(\.instance) }
}

func decodeJSON<T: Decodable>(_ type: T.Type, _ text: String) throws -> T {
    try WidgetJSON.decoder.decode(type, from: Data(text.utf8))
}

/// The package root, found from this file's path so tests read the shipped example files.
func packageRoot(_ file: String = #filePath) -> URL {
    URL(fileURLWithPath: file)
        .deletingLastPathComponent()  // WidgetCoreTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()
}
