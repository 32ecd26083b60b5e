import Foundation
import WidgetCore

/// Timelines read as `WidgetTimeline(from:)` reads them, for `push` and for providers' answers.
extension JSONCursor {
    /// What stands between the text and `WidgetTimeline(from:)`, which decides what a reader must
    /// refuse to agree with the general decoder.
    enum TimelineReading {
        /// `JSONDecoder` reads the `WidgetTimeline` from this very text (`push`): values under keys
        /// nobody reads are only checked for syntax, numbers are read straight as `Double`.
        case direct
        /// The whole text is first decoded as one `JSONValue`, and each timeline in it is
        /// encoded again and decoded from that (a provider's answer, see
        /// `ProviderAnswer.decodedTimelines`). Every value, even under a key nobody reads,
        /// must then be one `JSONValue` takes (`1e400` is not), and a number reaches `Double`
        /// as `JSONValue` holds it (`-0` as `0`).
        case throughTree
    }

    /// As `WidgetTimeline(from:)`: `entries` required, `policy` absent or null meaning `atEnd`.
    mutating func timeline(_ reading: TimelineReading) -> WidgetTimeline? {
        var seen = SeenKeys()
        var entries: [WidgetEntry]?
        var policy: ReloadPolicy?
        let ok = object { cursor, key in
            switch key {
            case "entries":
                guard seen.first(0), let list = cursor.timelineEntries(reading) else { return false }
                entries = list
            case "policy":
                guard seen.first(1), let value = cursor.nullable({ $0.reloadPolicy(reading) }) else { return false }
                policy = value
            default:
                return cursor.skip(reading)
            }
            return true
        }
        guard ok, let entries else { return nil }
        return WidgetTimeline(entries: entries, policy: policy ?? .atEnd)
    }

    /// A timeline's `entries` array, in the order written (`WidgetTimeline.init` sorts them).
    mutating func timelineEntries(_ reading: TimelineReading) -> [WidgetEntry]? {
        var list: [WidgetEntry] = []
        let ok = array { cursor in
            guard let entry = cursor.timelineEntry(reading) else { return false }
            list.append(entry)
            return true
        }
        return ok ? list : nil
    }

    /// As `WidgetEntry(from:)`: content absent or null is `null`; a relevance that breaks
    /// its rules (score not finite, duration below 0) gives nil, and the general decoder says
    /// why.
    mutating func timelineEntry(_ reading: TimelineReading) -> WidgetEntry? {
        var seen = SeenKeys()
        var date: Date?
        var content: [UInt8]?
        var relevance: EntryRelevance?
        var actions: [WidgetAction] = []
        let ok = object { cursor, key in
            switch key {
            case "date":
                guard seen.first(0), let value = cursor.date() else { return false }
                date = value
            case "content":
                guard seen.first(1) else { return false }
                var text: [UInt8] = []
                guard cursor.canonical(into: &text) else { return false }
                content = text
            case "relevance":
                guard seen.first(2), let value = cursor.nullable({ $0.relevance(reading) }) else { return false }
                relevance = value
            case "actions":
                // Rare and small: read by the general decoder from their canonical text, so
                // both readers agree on every rule.
                guard seen.first(3) else { return false }
                var text: [UInt8] = []
                guard cursor.canonical(into: &text) else { return false }
                guard text != Array("null".utf8) else { return true }
                guard let list = try? WidgetJSON.decoder.decode([WidgetAction].self, from: Data(text)) else { return false }
                actions = list
            default:
                return cursor.skip(reading)
            }
            return true
        }
        guard ok, let date, WidgetEntry.windowFits(date, relevance) else { return nil }
        let contentJSON = content.map { String(decoding: $0, as: UTF8.self) } ?? "null"
        var seenIDs = Set<String>()
        guard actions.allSatisfy({ seenIDs.insert($0.id).inserted }) else { return nil }
        return WidgetEntry(date: date, contentJSON: contentJSON, relevance: relevance, actions: actions)
    }

    /// As `EntryRelevance(from:)`.
    mutating func relevance(_ reading: TimelineReading) -> EntryRelevance? {
        var seen = SeenKeys()
        var score: Double?
        var duration: Double?
        let ok = object { cursor, key in
            switch key {
            case "score":
                guard seen.first(0), let value = cursor.double(reading) else { return false }
                score = value
            case "duration":
                guard seen.first(1), let value = cursor.nullable({ $0.double(reading) }) else { return false }
                duration = value
            case "when":
                // Context clues are rare and structured: the general decoder reads them.
                return false
            default:
                return cursor.skip(reading)
            }
            return true
        }
        guard ok, let score, score.isFinite, (duration ?? 0) >= 0 else { return nil }
        return EntryRelevance(score: score, duration: duration ?? 0)
    }

    /// As `ReloadPolicy(from:)`: `"atEnd"`, `"never"` or `{"after": DATE}`.
    mutating func reloadPolicy(_ reading: TimelineReading) -> ReloadPolicy? {
        skipSpace()
        if peek == UInt8(ascii: "\"") {
            switch string() {
            case "atEnd": return .atEnd
            case "never": return .never
            default: return nil
            }
        }
        var after: Date?
        let ok = object { cursor, key in
            guard "after" ~= key else { return cursor.skip(reading) }
            guard after == nil, let value = cursor.date() else { return false }
            after = value
            return true
        }
        guard ok, let after else { return nil }
        return .after(after)
    }

    /// A value under a key the reader does not use.
    mutating func skip(_ reading: TimelineReading) -> Bool {
        switch reading {
        case .direct: return skipValue()
        case .throughTree:
            // `canonical` refuses exactly where `value()` would give nil; such keys are rare.
            var scratch: [UInt8] = []
            return canonical(into: &scratch)
        }
    }

    /// A number decoded as `Double`: straight from the text, or from the `JSONValue` it
    /// becomes first (whose text the encoder writes and the decoder reads back unchanged).
    private mutating func double(_ reading: TimelineReading) -> Double? {
        switch reading {
        case .direct: return double()
        case .throughTree:
            switch numberValue() {
            case .integer(let value)?: return Double(value)
            case .number(let value)?: return value
            default: return nil
            }
        }
    }
}
