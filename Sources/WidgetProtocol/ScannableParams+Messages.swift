import Foundation
import WidgetCore

// Scanners of the hot methods' params. Each mirrors the type's synthesized `Decodable`:
// unknown keys are skipped (their values still checked), `null` is nil for an optional, a
// required key that is missing or null gives nil (the general decoder names it), and so do
// duplicates of a known key.

extension JSONCursor {
    /// Reads `json` as one object and nothing else.
    static func readObject(_ json: UnsafeRawBufferPointer, _ member: (inout JSONCursor, JSONKey) -> Bool) -> Bool {
        var cursor = JSONCursor(json)
        return cursor.object(member) && cursor.atEnd()
    }
}

extension ReloadTimelinesParams: ScannableParams {
    public static func scan(_ json: UnsafeRawBufferPointer) -> ReloadTimelinesParams? {
        var seen = SeenKeys()
        var kinds: [String] = []
        var instances: [InstanceID]?
        var userInitiated: Bool?
        let ok = JSONCursor.readObject(json) { cursor, key in
            switch key {
            case "kinds":
                guard seen.first(0), let value = cursor.strings() else { return false }
                kinds = value
            case "userInitiated":
                guard seen.first(1), let value = cursor.nullable({ $0.bool() }) else { return false }
                userInitiated = value
            case "instances":
                guard seen.first(2), let value = cursor.nullable({ $0.strings() }) else { return false }
                instances = value
            default:
                return cursor.skipValue()
            }
            return true
        }
        guard ok else { return nil }
        return ReloadTimelinesParams(kinds: kinds, instances: instances, userInitiated: userInitiated)
    }
}

extension DonateParams: ScannableParams {
    public static func scan(_ json: UnsafeRawBufferPointer) -> DonateParams? {
        var seen = SeenKeys()
        var intentType: String?
        var params = DonateParams(intentType: "")
        let ok = JSONCursor.readObject(json) { cursor, key in
            switch key {
            case "intentType":
                guard seen.first(0), let value = cursor.string() else { return false }
                intentType = value
            case "parameters":
                guard seen.first(1), let value = cursor.nullable({ $0.objectValue() }) else { return false }
                params.parameters = value
            case "date":
                guard seen.first(2), let value = cursor.nullable({ $0.date() }) else { return false }
                params.date = value
            case "id":
                guard seen.first(3), let value = cursor.nullable({ $0.string() }) else { return false }
                params.id = value
            case "group":
                guard seen.first(4), let value = cursor.nullable({ $0.string() }) else { return false }
                params.group = value
            default:
                return cursor.skipValue()
            }
            return true
        }
        guard ok, let intentType else { return nil }
        params.intentType = intentType
        return params
    }
}

extension VisibleParams: ScannableParams {
    public static func scan(_ json: UnsafeRawBufferPointer) -> VisibleParams? {
        var instances: [String]?
        let ok = JSONCursor.readObject(json) { cursor, key in
            guard "instances" ~= key else { return cursor.skipValue() }
            guard instances == nil, let value = cursor.strings() else { return false }
            instances = value
            return true
        }
        guard ok, let instances else { return nil }
        return VisibleParams(instances: instances)
    }
}

/// Also read for `push` (the access check wants the instance before the timeline).
extension InstanceParams: ScannableParams {
    public static func scan(_ json: UnsafeRawBufferPointer) -> InstanceParams? {
        JSONCursor.requiredString("id", in: json).map(InstanceParams.init(id:))
    }
}

extension JSONCursor {
    /// The one member a type reads, a string; other members skipped.
    static func requiredString(_ name: StaticString, in json: UnsafeRawBufferPointer) -> String? {
        var result: String?
        let ok = readObject(json) { cursor, key in
            guard name ~= key else { return cursor.skipValue() }
            guard result == nil, let value = cursor.string() else { return false }
            result = value
            return true
        }
        return ok ? result : nil
    }
}
