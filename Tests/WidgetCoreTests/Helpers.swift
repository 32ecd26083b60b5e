import Foundation
// @testable for internal helpers (ReloadMember also has a public initialiser now).
@testable import WidgetCore

/// An entry whose content names it, so a test can tell equal-date entries apart.
func entry(_ date: Date, _ name: String) -> WidgetEntry {
    WidgetEntry(date: date, content: .string(name))
}

func contentName(_ entry: WidgetEntry?) -> String? {
    entry?.content.stringValue
}

func makeScheduler(window: TimeInterval = 60, limit: Int = 70, spacing: TimeInterval = 300, budget enabled: Bool = true)
    -> ScheduleFixture
{
    ScheduleFixture(budget: ReloadBudget(limit: limit, spacing: spacing, enabled: enabled), coalescingWindow: window)
}

extension SchedulerEvent {
    var batch: ReloadBatch? {
        if case .reload(let batch) = self { return batch }
        return nil
    }

    var entryChange: (InstanceID, Date)? {
        if case .entryChange(let id, let date, _) = self { return (id, date) }
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
