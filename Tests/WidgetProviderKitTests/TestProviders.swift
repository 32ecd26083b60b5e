import Foundation
import WidgetProviderKit

/// Providers and bundles of the tests' own: each exercises one part of the kit, where the
/// examples (ExampleWidgetBundle) show whole widgets.
struct CounterEntry: TimelineEntry {
    let date: Date
    let relevance: TimelineEntryRelevance?
    let count: Int
    let label: String
}

/// Async style; reads its configuration through `ConfigurationValues`.
struct AsyncCounterProvider: TimelineProvider {
    func placeholder(in context: Context) -> CounterEntry {
        CounterEntry(date: context.date, relevance: nil, count: 0, label: "placeholder")
    }

    func snapshot(in context: Context) async -> CounterEntry {
        CounterEntry(date: context.date, relevance: nil, count: 1, label: context.isPreview ? "preview" : "snapshot")
    }

    func timeline(in context: Context) async -> Timeline<CounterEntry> {
        let count = context.configuration.integer("count") ?? 2
        let entries = (0..<count).map { index in
            CounterEntry(
                date: context.date.addingTimeInterval(TimeInterval(index) * 60),
                relevance: TimelineEntryRelevance(score: Float(index) + 0.5, duration: 30), count: index,
                label: context.family.rawValue)
        }
        return Timeline(entries: entries, policy: .atEnd)
    }
}

/// Completion-handler style, written as WidgetKit tutorials write it (no `@Sendable`).
struct CompletionCounterProvider: TimelineProvider {
    func placeholder(in context: Context) -> CounterEntry {
        CounterEntry(date: context.date, relevance: nil, count: 0, label: "placeholder")
    }

    func getSnapshot(in context: Context, completion: @escaping (CounterEntry) -> Void) {
        completion(CounterEntry(date: context.date, relevance: nil, count: 1, label: "completion snapshot"))
    }

    func getTimeline(in context: Context, completion: @escaping (Timeline<CounterEntry>) -> Void) {
        let entry = CounterEntry(date: context.date, relevance: nil, count: 7, label: "completion")
        completion(Timeline(entries: [entry], policy: .never))
    }
}

struct GreetingIntent: Decodable, Sendable {
    enum Mood: String, Decodable, Sendable { case happy, grumpy }

    var name: String?
    var mood: Mood?
    var due: Date?
    var friends: [String]?
}

struct GreetingEntry: TimelineEntry {
    let date: Date
    let greeting: String
    let due: Date?
}

/// An intent provider in completion style that also offers dynamic options.
struct GreetingProvider: IntentTimelineProvider, DynamicOptionsProvider {
    static let friends = [
        IntentOption(id: "ann", display: "Ann Arbor"),
        IntentOption(id: "bob", display: "Bob Böhm"),
        IntentOption(id: "cy", display: "Cy Young"),
    ]

    func placeholder(in context: Context) -> GreetingEntry {
        GreetingEntry(date: context.date, greeting: "Hello", due: nil)
    }

    func getSnapshot(
        for configuration: GreetingIntent, in context: Context, completion: @escaping (GreetingEntry) -> Void
    ) {
        completion(GreetingEntry(date: context.date, greeting: greeting(configuration), due: configuration.due))
    }

    func getTimeline(
        for configuration: GreetingIntent, in context: Context, completion: @escaping (Timeline<GreetingEntry>) -> Void
    ) {
        let entry = GreetingEntry(date: context.date, greeting: greeting(configuration), due: configuration.due)
        completion(Timeline(entries: [entry], policy: .after(context.date.addingTimeInterval(7200))))
    }

    func options(for parameter: String, matching search: String?, in context: Context) async throws -> [IntentOption] {
        guard parameter == "friends" else {
            throw WidgetProviderError.noDynamicOptions(kind: context.kind, parameter: parameter)
        }
        return Self.friends.matching(search)
    }

    private func greeting(_ intent: GreetingIntent) -> String {
        let name = intent.name ?? "World"
        let friends = (intent.friends ?? []).joined(separator: "+")
        return (intent.mood == .grumpy ? "Go away, " : "Hello, ") + name + (friends.isEmpty ? "" : " & " + friends)
    }
}

/// Gives fresh relevance: higher for a grumpy greeting, which needs attention, for an hour.
extension GreetingProvider: RelevanceProvider {
    func relevance(in context: TimelineProviderContext) async throws -> [DatedRelevance] {
        let intent = try context.configuration.decode(GreetingIntent.self)
        return [DatedRelevance(date: context.date, score: intent.mood == .grumpy ? 0.9 : 0.1, duration: 3600)]
    }
}

struct TestBundle: WidgetProviderBundle {
    var body: [any WidgetConfiguration] {
        StaticConfiguration(kind: "test.async", provider: AsyncCounterProvider())
        StaticConfiguration(kind: "test.completion", provider: CompletionCounterProvider())
        IntentConfiguration(kind: "test.greeting", intent: GreetingIntent.self, provider: GreetingProvider())
    }
}

struct DuplicateKindBundle: WidgetProviderBundle {
    var body: [any WidgetConfiguration] {
        StaticConfiguration(kind: "test.same", provider: AsyncCounterProvider())
        StaticConfiguration(kind: "test.same", provider: CompletionCounterProvider())
    }
}

/// Runs one exchange and returns the answer as text and as a parsed object.
func ask(_ verb: String, _ request: String) async throws -> (text: String, json: [String: Any]) {
    try await ask(TestBundle.self, verb, request)
}

func ask<Bundle: WidgetProviderBundle>(
    _ bundle: Bundle.Type, _ verb: String, _ request: String
) async throws -> (text: String, json: [String: Any]) {
    let data = try await bundle.answer(verb: verb, request: Data(request.utf8))
    let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
    return (String(decoding: data, as: UTF8.self), object ?? [:])
}

/// A request body with sorted keys, as widgetd writes it.
func request(
    kind: String, family: String = "systemSmall", configuration: String = "{}", now: String = "2026-01-05T08:00:00Z",
    extra: String = ""
) -> String {
    #"{"configuration":\#(configuration),"family":"\#(family)","kind":"\#(kind)",\#(extra)"now":"\#(now)"}"#
}
