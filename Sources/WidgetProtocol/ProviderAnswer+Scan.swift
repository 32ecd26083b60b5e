import Foundation
import WidgetCore

/// A provider's answer read in one pass over its bytes, each entry's content written straight
/// to its stored text, as `push` is read (`JSONCursor+Timeline.swift`).
extension ProviderAnswer {
    /// What `decodedTimelines` gives, or nil where it would throw or fail an instance for a
    /// fault of the answer (then it says which); an instance's `{"error": ...}` is read here.
    /// nil also for anything the cursor leaves to `JSONDecoder` (`\u` escapes, deep nesting).
    public static func scannedTimelines(_ bytes: UnsafeRawBufferPointer, count: Int) -> [Result<WidgetTimeline, Fault>]? {
        var cursor = JSONCursor(bytes)
        var seen = SeenKeys()
        var items: [Result<WidgetTimeline, Fault>]?
        var entries: [WidgetEntry]?
        var policy: ReloadPolicy?
        // The top level holds both shapes' keys: `timelines` decides which, but the other
        // shape's keys must still be values the general decoder takes.
        let ok = cursor.object { cursor, key in
            switch key {
            case "timelines":
                guard seen.first(0), let list = cursor.answerItems() else { return false }
                items = list
            case "entries":
                guard seen.first(1), let list = cursor.timelineEntries(.throughTree) else { return false }
                entries = list
            case "policy":
                guard seen.first(2), let value = cursor.nullable({ $0.reloadPolicy(.throughTree) }) else { return false }
                policy = value
            default:
                return cursor.skip(.throughTree)
            }
            return true
        }
        guard ok, cursor.atEnd() else { return nil }
        if let items { return items.count == count ? items : nil }
        guard let entries else { return nil }
        return Array(repeating: .success(WidgetTimeline(entries: entries, policy: policy ?? .atEnd)), count: count)
    }
}

extension JSONCursor {
    /// The elements of `timelines`.
    fileprivate mutating func answerItems() -> [Result<WidgetTimeline, ProviderAnswer.Fault>]? {
        var items: [Result<WidgetTimeline, ProviderAnswer.Fault>] = []
        let ok = array { cursor in
            guard let item = cursor.answerItem() else { return false }
            items.append(item)
            return true
        }
        return ok ? items : nil
    }

    /// A timeline, or `{"error": "reason"}` when there are no `entries` (with them, `error`
    /// is just another key).
    private mutating func answerItem() -> Result<WidgetTimeline, ProviderAnswer.Fault>? {
        var seen = SeenKeys()
        var entries: [WidgetEntry]?
        var policy: ReloadPolicy?
        var reason: String?
        let ok = object { cursor, key in
            switch key {
            case "entries":
                guard seen.first(0), let list = cursor.timelineEntries(.throughTree) else { return false }
                entries = list
            case "policy":
                guard seen.first(1), let value = cursor.nullable({ $0.reloadPolicy(.throughTree) }) else { return false }
                policy = value
            case "error":
                guard seen.first(2) else { return false }
                cursor.skipSpace()
                if cursor.peek == UInt8(ascii: "\"") {
                    guard let text = cursor.string() else { return false }
                    reason = text
                } else {
                    return cursor.skip(.throughTree)
                }
            default:
                return cursor.skip(.throughTree)
            }
            return true
        }
        guard ok else { return nil }
        if let entries { return .success(WidgetTimeline(entries: entries, policy: policy ?? .atEnd)) }
        guard let reason else { return nil }
        return .failure(ProviderAnswer.Fault("the provider reported: \(reason)"))
    }
}
