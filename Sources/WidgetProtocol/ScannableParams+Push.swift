import Foundation
import WidgetCore

/// `push`: the timeline read without `JSONDecoder`, each entry's content written straight to
/// its compact text (`WidgetEntry.contentJSON`) instead of through a `JSONValue` tree.
/// `WidgetTimeline.init` then sorts and de-duplicates the entries as it does for a decoded one.
extension PushParams: ScannableParams {
    public static func scan(_ json: UnsafeRawBufferPointer) -> PushParams? {
        var seen = SeenKeys()
        var id: String?
        var timeline: WidgetTimeline?
        let ok = JSONCursor.readObject(json) { cursor, key in
            switch key {
            case "id":
                guard seen.first(0), let value = cursor.string() else { return false }
                id = value
            case "timeline":
                guard seen.first(1), let value = cursor.timeline(.direct) else { return false }
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
