import Foundation
import WidgetProviderKit

/// The tutorial's `RandomNumberWidgetProvider` ("iOS の widget を設定可能にする"), ported: the
/// SwiftUI code is gone and `Date()` became `context.date`; the rest is the tutorial's code.
struct RandomNumberProvider: IntentTimelineProvider {
    func placeholder(in context: Context) -> RandomNumberEntry {
        RandomNumberEntry(date: context.date, number: 42, range: "1...100")
    }

    func getSnapshot(
        for configuration: RandomNumberIntent, in context: Context, completion: @escaping (RandomNumberEntry) -> Void
    ) {
        completion(makeEntry(date: context.date, configuration: configuration))
    }

    func getTimeline(
        for configuration: RandomNumberIntent, in context: Context,
        completion: @escaping (Timeline<RandomNumberEntry>) -> Void
    ) {
        var entries: [RandomNumberEntry] = []

        let currentDate = context.date
        for hourOffset in 0..<5 {
            let entryDate = Calendar.current.date(byAdding: .hour, value: hourOffset, to: currentDate)!
            entries.append(makeEntry(date: entryDate, configuration: configuration))
        }

        let timeline = Timeline(entries: entries, policy: .atEnd)
        completion(timeline)
    }

    private func makeEntry(date: Date, configuration: RandomNumberIntent) -> RandomNumberEntry {
        let range = numberRange(configuration: configuration)
        return RandomNumberEntry(
            date: date, number: Int.random(in: range), range: "\(range.lowerBound)...\(range.upperBound)")
    }

    private func numberRange(configuration: RandomNumberIntent) -> ClosedRange<Int> {
        if configuration.useCustomRange == true,
            let id = configuration.customRange,
            let customRange = CustomRange.named(id)
        {
            return customRange.minNumber...customRange.maxNumber
        }
        // The descriptor bounds maxNumber to 1...200; clamp anyway, as Int.random traps on 1...0.
        let maxNumber = configuration.maxNumber ?? 100
        return 1...max(1, maxNumber)
    }
}
