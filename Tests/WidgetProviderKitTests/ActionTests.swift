import Foundation
import Synchronization
import Testing
import WidgetProviderKit

/// A checklist kept in memory, so that the tests see what `perform` changed.
private let checked = Mutex<[String: Set<String>]>([:])

/// Marks an item of an instance's checklist; fails for the item "broken".
private struct CheckItemIntent: WidgetActionIntent {
    static let intentType = "CheckItem"
    var item: String
    var on: Bool?
    var due: Date?

    func perform(in context: TimelineProviderContext) async throws -> IntentResult {
        guard item != "broken" else { throw WidgetProviderError.badRequest("item 'broken' cannot be checked") }
        let instance = context.instance ?? "-"
        let on = self.on ?? true
        checked.withLock { if on { $0[instance, default: []].insert(item) } else { $0[instance]?.remove(item) } }
        return .result(dialog: on ? "Checked \(item)" : nil)
    }
}

private struct ClearIntent: WidgetActionIntent {
    static let intentType = "Clear"
    func perform(in context: TimelineProviderContext) async throws -> IntentResult { .result() }
}

private struct ChecklistEntry: TimelineEntry {
    let date: Date
    let items: [String]
    let actions: [EntryAction]
}

private struct ChecklistProvider: TimelineProvider {
    var actionIDs: [String] = ["check-milk", "clear"]

    func placeholder(in context: Context) -> ChecklistEntry {
        ChecklistEntry(date: context.date, items: ["milk"], actions: [])
    }

    func snapshot(in context: Context) async -> ChecklistEntry { placeholder(in: context) }

    func timeline(in context: Context) async -> Timeline<ChecklistEntry> {
        let actions = actionIDs.map { id in
            id == "clear"
                ? EntryAction(id: id, title: "Clear", intent: ClearIntent())
                : EntryAction(id: id, title: "Check milk", intent: CheckItemIntent(item: "milk", due: context.date))
        }
        return Timeline(entries: [ChecklistEntry(date: context.date, items: ["milk"], actions: actions)], policy: .never)
    }
}

private struct ChecklistBundle: WidgetProviderBundle {
    var body: [any WidgetConfiguration] {
        StaticConfiguration(kind: "test.checklist", provider: ChecklistProvider(), actions: [CheckItemIntent.self, ClearIntent.self])
        StaticConfiguration(kind: "test.twice", provider: ChecklistProvider(actionIDs: ["same", "same"]))
        StaticConfiguration(kind: "test.async", provider: AsyncCounterProvider())
    }
}

private func perform(_ kind: String, _ intent: String, instance: String = "w1") async throws -> (text: String, json: [String: Any]) {
    try await ask(ChecklistBundle.self, "perform", request(kind: kind, extra: #""instance":"\#(instance)","intent":\#(intent),"#))
}

@Suite("Actions")
struct ActionTests {
    @Test("an entry's actions go beside its content, each intent as its type and parameters")
    func entryActions() async throws {
        let (text, _) = try await ask(ChecklistBundle.self, "timeline", request(kind: "test.checklist"))
        #expect(
            text == #"""
                {"timelines":[{"entries":[{"actions":[{"id":"check-milk","intent":{"parameters":{"due":"2026-01-05T08:00:00Z",\#
                "item":"milk"},"type":"CheckItem"},"title":"Check milk"},{"id":"clear","intent":{"parameters":{},\#
                "type":"Clear"},"title":"Clear"}],"content":{"items":["milk"]},"date":"2026-01-05T08:00:00Z"}],"policy":"never"}]}
                """#)
    }

    @Test("an entry without actions has no actions key")
    func noActions() async throws {
        let (_, json) = try await ask(ChecklistBundle.self, "placeholder", request(kind: "test.checklist"))
        #expect(json.keys.sorted() == ["content", "date"])
    }

    @Test("two actions with one id fail that instance's timeline, naming the id")
    func duplicateIDs() async throws {
        let (_, json) = try await ask(ChecklistBundle.self, "timeline", request(kind: "test.twice"))
        let slot = try #require((json["timelines"] as? [[String: Any]])?.first)
        #expect((slot["error"] as? String)?.contains("two actions have the id 'same'") == true)
    }

    @Test("perform decodes the intent by its type, runs it with the instance's context and answers its dialog")
    func performs() async throws {
        let (text, _) = try await perform("test.checklist", #"{"type":"CheckItem","parameters":{"item":"eggs"}}"#, instance: "p1")
        #expect(text == #"{"dialog":"Checked eggs"}"#)
        #expect(checked.withLock { $0["p1"] } == ["eggs"])
        let (off, _) = try await perform("test.checklist", #"{"type":"CheckItem","parameters":{"item":"eggs","on":false}}"#, instance: "p1")
        #expect(off == "{}")
        #expect(checked.withLock { $0["p1"] } == [])
        // Absent parameters are an empty object.
        #expect(try await perform("test.checklist", #"{"type":"Clear"}"#).text == "{}")
    }

    @Test("an intent type the kind does not list, or a kind with none, is refused by name")
    func unknownIntent() async throws {
        await #expect(throws: WidgetProviderError.unknownIntent(kind: "test.checklist", type: "Nope", declared: ["CheckItem", "Clear"])) {
            try await perform("test.checklist", #"{"type":"Nope","parameters":{}}"#)
        }
        await #expect(throws: WidgetProviderError.unknownIntent(kind: "test.async", type: "Clear", declared: [])) {
            try await perform("test.async", #"{"type":"Clear"}"#)
        }
        #expect(WidgetProviderError.unknownIntent(kind: "k", type: "T", declared: []).description == "kind 'k' has no action intent 'T' (its configuration lists: none)")
    }

    @Test("parameters that do not decode name the field; a request without intent is bad")
    func badParameters() async throws {
        await #expect(throws: WidgetProviderError.badIntent(type: "CheckItem", reason: ".item is required")) {
            try await perform("test.checklist", #"{"type":"CheckItem","parameters":{"on":true}}"#)
        }
        await #expect(throws: WidgetProviderError.badIntent(type: "CheckItem", reason: ".on has the wrong type")) {
            try await perform("test.checklist", #"{"type":"CheckItem","parameters":{"item":"x","on":"yes"}}"#)
        }
        await #expect(throws: WidgetProviderError.badRequest(".intent is required")) {
            try await ask(ChecklistBundle.self, "perform", request(kind: "test.checklist", extra: #""instance":"w1","#))
        }
    }

    @Test("an intent that throws fails the call with its error")
    func performFails() async throws {
        await #expect(throws: WidgetProviderError.badRequest("item 'broken' cannot be checked")) {
            try await perform("test.checklist", #"{"type":"CheckItem","parameters":{"item":"broken"}}"#)
        }
    }

    @Test("AppIntent is the action intent protocol, as WidgetKit names it")
    func alias() {
        let intent: any AppIntent = ClearIntent()
        #expect(type(of: intent).intentType == "Clear")
        #expect(IntentResult.result(dialog: "Hi") == IntentResult(dialog: "Hi"))
    }
}
