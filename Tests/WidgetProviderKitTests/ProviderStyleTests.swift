import Foundation
import Testing
import WidgetProviderKit

/// A provider implements either the completion-handler forms or the async forms; the other
/// style is bridged by default implementations.
@Suite("Provider styles")
struct ProviderStyleTests {
    let context = TimelineProviderContext(
        kind: "k", family: .systemMedium, date: Date(timeIntervalSince1970: 1_767_600_000))

    @Test("a completion-handler provider answers through the async forms")
    func completionToAsync() async {
        let provider = CompletionCounterProvider()
        #expect(await provider.timeline(in: context).entries.map(\.count) == [7])
        #expect(await provider.snapshot(in: context).label == "completion snapshot")
    }

    @Test("an async provider answers through the completion-handler forms")
    func asyncToCompletion() async {
        let provider = AsyncCounterProvider()
        let timeline = await withCheckedContinuation { continuation in
            provider.getTimeline(in: context) { continuation.resume(returning: $0) }
        }
        #expect(timeline.entries.count == 2)
        #expect(timeline.policy == .atEnd)
        let snapshot = await withCheckedContinuation { continuation in
            provider.getSnapshot(in: context) { continuation.resume(returning: $0) }
        }
        #expect(snapshot.label == "snapshot")
    }

    @Test("an intent provider is bridged both ways too")
    func intentProvider() async {
        struct AsyncGreeting: IntentTimelineProvider {
            func placeholder(in context: Context) -> GreetingEntry {
                GreetingEntry(date: context.date, greeting: "", due: nil)
            }
            func snapshot(for configuration: GreetingIntent, in context: Context) async -> GreetingEntry {
                GreetingEntry(date: context.date, greeting: configuration.name ?? "", due: nil)
            }
            func timeline(for configuration: GreetingIntent, in context: Context) async -> Timeline<GreetingEntry> {
                Timeline(entries: [await snapshot(for: configuration, in: context)], policy: .never)
            }
        }
        let intent = GreetingIntent(name: "Ann", mood: nil, due: nil, friends: nil)
        let bridged = await withCheckedContinuation { continuation in
            AsyncGreeting().getTimeline(for: intent, in: context) { continuation.resume(returning: $0) }
        }
        #expect(bridged.entries.map(\.greeting) == ["Ann"])
        let fromCompletion = await GreetingProvider().timeline(for: intent, in: context)
        #expect(fromCompletion.entries.map(\.greeting) == ["Hello, Ann"])
        #expect(fromCompletion.policy == .after(context.date.addingTimeInterval(7200)))
    }

    @Test("the bundle serves both styles alike")
    func bundleServesBoth() async throws {
        for kind in ["test.async", "test.completion"] {
            let (_, json) = try await ask("timeline", request(kind: kind))
            #expect((json["timelines"] as? [Any])?.count == 1, "\(kind)")
        }
    }
}
