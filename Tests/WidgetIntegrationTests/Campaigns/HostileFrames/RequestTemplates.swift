import WidgetProtocol

/// A valid request for every control-socket method, the starting point of mutations.
/// The switch is exhaustive, so a new method cannot be left out of the campaign.
///
/// Methods that would change state are pointed at names that do not exist (`fuzz.unknown`,
/// `fuzz-missing`), except where the campaign's one instance (`victim`) and one stack
/// (`fuzz-stack`) are meant to take hostile values; the end checks allow for those.
struct RequestTemplates {
    let victim: String

    static let date = RawJSON.string("2026-01-05T08:30:00Z")
    static let unknownKind = RawJSON.string("fuzz.unknown")
    static let stack = RawJSON.string("fuzz-stack")

    func params(_ method: RPCMethod) -> RawJSON? {
        let victim = RawJSON.string(victim)
        switch method {
        case .ping, .status, .widgets, .widgetsReload, .list, .schedule, .clock, .stackList, .subscribe:
            return nil
        case .add:
            return .object([
                ("kind", Self.unknownKind), ("family", .string("systemSmall")),
                ("configuration", .object([("slot", .text("1"))])), ("stack", Self.stack),
            ])
        case .remove:
            return .object([("id", .string("fuzz-missing"))])
        case .configure:
            return .object([
                ("id", victim), ("configuration", .object([("city", .string("Paris")), ("slot", .text("2"))])),
                ("replace", .text("false")),
            ])
        case .timeline, .budget:
            return .object([("id", victim)])
        case .push:
            let entry = RawJSON.object([
                ("date", Self.date), ("content", .object([("n", .text("1")), ("s", .array([.text("true"), .text("null")]))])),
                ("relevance", .object([("score", .text("0.5")), ("duration", .text("600"))])),
            ])
            return .object([
                ("id", victim),
                ("timeline", .object([("entries", .array([entry])), ("policy", .object([("after", Self.date)]))])),
            ])
        case .reloadTimelines:
            return .object([("kinds", .array([Self.unknownKind])), ("userInitiated", .text("true"))])
        case .reloadAllTimelines:
            return .object([("userInitiated", .text("false"))])
        case .invalidateRelevance:
            return .object([("kinds", .array([Self.unknownKind]))])
        case .perform:
            return .object([("instance", .string("fuzz-missing")), ("action", .string("done"))])
        case .clockAdvance:
            return .object([("seconds", .text("60"))])
        case .simulate:
            return .object([("hours", .text("2")), ("limit", .text("50"))])
        case .clockSet:
            return .object([("date", Self.date)])
        case .preview:
            return .object([("kind", Self.unknownKind), ("family", .string("systemSmall")), ("configuration", .object([]))])
        case .placeholder:
            return .object([("kind", Self.unknownKind), ("family", .string("systemMedium"))])
        case .options:
            return .object([
                ("kind", Self.unknownKind), ("parameter", .string("city")), ("search", .string("Pa")),
                ("family", .string("systemSmall")),
            ])
        case .invalidateConfigurationRecommendations:
            return .object([("kind", Self.unknownKind)])
        case .stackCreate:
            return .object([("name", Self.stack), ("smartRotate", .text("true"))])
        case .stackAdd:
            return .object([("name", Self.stack), ("instances", .array([victim]))])
        case .stackShow, .explain:
            return .object([("name", Self.stack)])
        case .stackRemove:
            return .object([("name", .string("fuzz-missing-stack"))])
        case .stackSwipe:
            return .object([("name", Self.stack), ("instance", victim)])
        case .stackSmartRotate:
            return .object([("name", Self.stack), ("on", .text("false"))])
        case .donate:
            return .object([
                ("intentType", .string("TestConfiguration")), ("parameters", .object([("city", .string("Paris"))])),
                ("date", Self.date), ("id", .string("fuzz-donation")), ("group", .string("fuzz-group")),
            ])
        case .donationsDelete:
            return .object([("group", .string("fuzz-missing-group"))])
        case .donationsList:
            return .object([("intentType", .string("TestConfiguration"))])
        case .log:
            return .object([("stack", Self.stack), ("since", Self.date), ("limit", .text("10"))])
        case .visible:
            return .object([("instances", .array([victim]))])
        }
    }
}
