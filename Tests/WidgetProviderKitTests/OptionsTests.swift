import Foundation
import Testing
import WidgetProviderKit

@Suite("Dynamic options")
struct OptionsTests {
    @Test("options without a search lists every option")
    func allOptions() async throws {
        let (text, _) = try await ask("options", request(kind: "test.greeting", extra: #""parameter":"friends","#))
        #expect(
            text == #"""
                {"options":[{"display":"Ann Arbor","id":"ann"},{"display":"Bob Böhm","id":"bob"},{"display":"Cy Young","id":"cy"}]}
                """#)
    }

    @Test("search filters by substring of display or id, ignoring case and diacritics")
    func search() async throws {
        let cases: [(String, [String])] = [
            ("ARBOR", ["ann"]), ("bohm", ["bob"]), ("cy", ["cy"]), ("o", ["ann", "bob", "cy"]), ("zz", []),
            ("  ", ["ann", "bob", "cy"]),
        ]
        for (search, expected) in cases {
            let (_, json) = try await ask(
                "options", request(kind: "test.greeting", extra: #""parameter":"friends","search":"\#(search)","#))
            let ids = (json["options"] as? [[String: Any]])?.compactMap { $0["id"] as? String }
            #expect(ids == expected, "search \(search)")
        }
    }

    @Test("options of a parameter the provider does not offer, or of a provider without options, fail")
    func noOptions() async throws {
        await #expect(throws: WidgetProviderError.noDynamicOptions(kind: "test.greeting", parameter: "name")) {
            _ = try await ask("options", request(kind: "test.greeting", extra: #""parameter":"name","#))
        }
        await #expect(throws: WidgetProviderError.noDynamicOptions(kind: "test.async", parameter: "x")) {
            _ = try await ask("options", request(kind: "test.async", extra: #""parameter":"x","#))
        }
        await #expect(throws: WidgetProviderError.badRequest(".parameter is required")) {
            _ = try await ask("options", request(kind: "test.greeting"))
        }
    }

    @Test("options see the configuration chosen so far")
    func configurationInContext() async throws {
        struct Provider: TimelineProvider, DynamicOptionsProvider {
            func placeholder(in context: Context) -> CounterEntry {
                CounterEntry(date: context.date, relevance: nil, count: 0, label: "")
            }
            func snapshot(in context: Context) async -> CounterEntry { placeholder(in: context) }
            func timeline(in context: Context) async -> Timeline<CounterEntry> { Timeline(entries: [], policy: .never) }
            func options(for parameter: String, matching search: String?, in context: Context) async throws
                -> [IntentOption]
            {
                let city = context.configuration.string("city") ?? "?"
                return [IntentOption(id: "\(city)-\(parameter)", display: context.family.rawValue)]
            }
        }
        struct Bundle: WidgetProviderBundle {
            var body: [any WidgetConfiguration] { StaticConfiguration(kind: "k", provider: Provider()) }
        }
        let body = request(
            kind: "k", family: "systemLarge", configuration: #"{"city":"Kyoto"}"#, extra: #""parameter":"stop","#)
        let (text, _) = try await ask(Bundle.self, "options", body)
        #expect(text == #"{"options":[{"display":"systemLarge","id":"Kyoto-stop"}]}"#)
    }
}
