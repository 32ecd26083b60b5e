import Foundation
import WidgetCore
import WidgetProtocol

/// A valid request for every control-socket method, the starting point of mutations: the
/// spec's example params (`MethodSpec.example`), or the campaign's own form below. A new
/// method is in the campaign as soon as its spec is in `Methods.all`.
///
/// Methods that would change state are pointed at names that do not exist (`fuzz.unknown`,
/// `fuzz-missing`), except where the campaign's one instance (`victim`) and one stack
/// (`fuzz-stack`) are meant to take hostile values; the end checks allow for those.
struct RequestTemplates {
    let victim: String

    static let date = RawJSON.string("2026-01-05T08:30:00Z")
    static let unknownKind = RawJSON.string("fuzz.unknown")
    static let stack = RawJSON.string("fuzz-stack")

    /// nil for a method that takes no params.
    func params(_ spec: any MethodSpec.Type) -> RawJSON? {
        campaignParams[spec.name] ?? Self.example(spec)
    }

    /// The spec's example as the wire has it.
    private static func example<Spec: MethodSpec>(_ spec: Spec.Type) -> RawJSON? {
        guard Spec.Params.self != EmptyParams.self else { return nil }
        let data = (try? WidgetJSON.encoder.encode(Spec.example)) ?? Data("{}".utf8)
        return RawJSON((try? WidgetJSON.decoder.decode(JSONValue.self, from: data)) ?? .object([:]))
    }

    /// Where the campaign wants other values than the examples: names that do not exist, the
    /// victim, numbers and booleans written as tokens.
    private var campaignParams: [String: RawJSON] {
        let victim = RawJSON.string(victim)
        let entry = RawJSON.object([
            ("date", Self.date), ("content", .object([("n", .text("1")), ("s", .array([.text("true"), .text("null")]))])),
            ("relevance", .object([("score", .text("0.5")), ("duration", .text("600"))])),
        ])
        return [
            Methods.Add.name: .object([
                ("kind", Self.unknownKind), ("family", .string("systemSmall")),
                ("configuration", .object([("slot", .text("1"))])), ("stack", Self.stack),
            ]),
            Methods.Remove.name: .object([("id", .string("fuzz-missing"))]),
            Methods.Configure.name: .object([
                ("id", victim), ("configuration", .object([("city", .string("Paris")), ("slot", .text("2"))])),
                ("replace", .text("false")),
            ]),
            Methods.WidgetTimeline.name: .object([("id", victim)]),
            Methods.Budget.name: .object([("id", victim)]),
            Methods.Push.name: .object([
                ("id", victim),
                ("timeline", .object([("entries", .array([entry])), ("policy", .object([("after", Self.date)]))])),
            ]),
            Methods.ReloadTimelines.name: .object([("kinds", .array([Self.unknownKind])), ("userInitiated", .text("true"))]),
            Methods.ReloadAllTimelines.name: .object([("userInitiated", .text("false"))]),
            Methods.InvalidateRelevance.name: .object([("kinds", .array([Self.unknownKind]))]),
            Methods.Perform.name: .object([("instance", .string("fuzz-missing")), ("action", .string("done"))]),
            Methods.ClockAdvance.name: .object([("seconds", .text("60"))]),
            Methods.Simulate.name: .object([("hours", .text("2")), ("limit", .text("50"))]),
            Methods.ClockSet.name: .object([("date", Self.date)]),
            Methods.Preview.name: .object([
                ("kind", Self.unknownKind), ("family", .string("systemSmall")), ("configuration", .object([])),
            ]),
            Methods.Placeholder.name: .object([("kind", Self.unknownKind), ("family", .string("systemMedium"))]),
            Methods.Options.name: .object([
                ("kind", Self.unknownKind), ("parameter", .string("city")), ("search", .string("Pa")),
                ("family", .string("systemSmall")),
            ]),
            Methods.InvalidateConfigurationRecommendations.name: .object([("kind", Self.unknownKind)]),
            Methods.StackCreate.name: .object([("name", Self.stack), ("smartRotate", .text("true"))]),
            Methods.StackAdd.name: .object([("name", Self.stack), ("instances", .array([victim]))]),
            Methods.StackShow.name: .object([("name", Self.stack)]),
            Methods.Explain.name: .object([("name", Self.stack)]),
            Methods.StackRemove.name: .object([("name", .string("fuzz-missing-stack"))]),
            Methods.StackSwipe.name: .object([("name", Self.stack), ("instance", victim)]),
            Methods.StackSmartRotate.name: .object([("name", Self.stack), ("on", .text("false"))]),
            Methods.Donate.name: .object([
                ("intentType", .string("TestConfiguration")), ("parameters", .object([("city", .string("Paris"))])),
                ("date", Self.date), ("id", .string("fuzz-donation")), ("group", .string("fuzz-group")),
            ]),
            Methods.DonationsDelete.name: .object([("group", .string("fuzz-missing-group"))]),
            Methods.DonationsList.name: .object([("intentType", .string("TestConfiguration"))]),
            Methods.Log.name: .object([("stack", Self.stack), ("since", Self.date), ("limit", .text("10"))]),
            Methods.Visible.name: .object([("instances", .array([victim]))]),
        ]
    }
}

extension RawJSON {
    /// A JSON value as the campaign's structure, so that its members can be mutated.
    init(_ value: JSONValue) {
        switch value {
        case .object(let fields): self = .object(fields.sorted { $0.key < $1.key }.map { (key: $0.key, value: RawJSON($0.value)) })
        case .array(let items): self = .array(items.map(RawJSON.init))
        default: self = .text(value.compactText)
        }
    }
}
