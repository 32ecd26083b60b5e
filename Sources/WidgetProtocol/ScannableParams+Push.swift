import Foundation
import WidgetCore

/// `push`: the timeline read without `JSONDecoder`, each entry's content written straight to
/// its compact text (`TimelineEntry.contentJSON`) instead of through a `JSONValue` tree.
/// `Timeline.init` then sorts and de-duplicates the entries as it does for a decoded one.
extension PushParams: ScannableParams {
    public static func scan(_ json: UnsafeRawBufferPointer) -> PushParams? {
        var seen = SeenKeys()
        var id: String?
        var timeline: Timeline?
        let ok = JSONCursor.readObject(json) { cursor, key in
            switch key {
            case "id":
                guard seen.first(0), let value = cursor.string() else { return false }
                id = value
            case "timeline":
                guard seen.first(1), let value = cursor.timeline() else { return false }
                timeline = value
            default:
                return cursor.skipValue()
            }
            return true
        }
        guard ok, let id, let timeline else { return nil }
        return PushParams(id: id, timeline: timeline)
    }
}

extension JSONCursor {
    /// As `Timeline(from:)`: `entries` required, `policy` absent or null meaning `atEnd`.
    mutating func timeline() -> Timeline? {
        var seen = SeenKeys()
        var entries: [TimelineEntry]?
        var policy: ReloadPolicy?
        let ok = object { cursor, key in
            switch key {
            case "entries":
                guard seen.first(0) else { return false }
                var list: [TimelineEntry] = []
                let read = cursor.array { cursor in
                    guard let entry = cursor.timelineEntry() else { return false }
                    list.append(entry)
                    return true
                }
                entries = list
                return read
            case "policy":
                guard seen.first(1), let value = cursor.nullable({ $0.reloadPolicy() }) else { return false }
                policy = value
            default:
                return cursor.skipValue()
            }
            return true
        }
        guard ok, let entries else { return nil }
        return Timeline(entries: entries, policy: policy ?? .atEnd)
    }

    /// As `TimelineEntry(from:)`: content absent or null is `null`; a relevance that breaks
    /// its rules (score not finite, duration below 0) gives nil, and the general decoder says
    /// why.
    mutating func timelineEntry() -> TimelineEntry? {
        var seen = SeenKeys()
        var date: Date?
        var content: [UInt8]?
        var relevance: EntryRelevance?
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
                guard seen.first(2), let value = cursor.nullable({ $0.relevance() }) else { return false }
                relevance = value
            default:
                return cursor.skipValue()
            }
            return true
        }
        guard ok, let date else { return nil }
        let contentJSON = content.map { String(decoding: $0, as: UTF8.self) } ?? "null"
        return TimelineEntry(date: date, contentJSON: contentJSON, relevance: relevance)
    }

    /// As `EntryRelevance(from:)`.
    mutating func relevance() -> EntryRelevance? {
        var seen = SeenKeys()
        var score: Double?
        var duration: Double?
        let ok = object { cursor, key in
            switch key {
            case "score":
                guard seen.first(0), let value = cursor.double() else { return false }
                score = value
            case "duration":
                guard seen.first(1), let value = cursor.nullable({ $0.double() }) else { return false }
                duration = value
            default:
                return cursor.skipValue()
            }
            return true
        }
        guard ok, let score, score.isFinite, (duration ?? 0) >= 0 else { return nil }
        return EntryRelevance(score: score, duration: duration ?? 0)
    }

    /// As `ReloadPolicy(from:)`: `"atEnd"`, `"never"` or `{"after": DATE}`.
    mutating func reloadPolicy() -> ReloadPolicy? {
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
            guard "after" ~= key else { return cursor.skipValue() }
            guard after == nil, let value = cursor.date() else { return false }
            after = value
            return true
        }
        guard ok, let after else { return nil }
        return .after(after)
    }
}
