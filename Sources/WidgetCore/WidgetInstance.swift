import Foundation

/// Identifies one placed widget. Short and random so it is easy to type in `widgetctl`.
public typealias InstanceID = String

/// One placed widget: kind + family + configuration (WidgetKit's `WidgetInfo`).
///
/// `family`, one byte, is declared last so that it ends the value: a record can then put a
/// field of its own in the padding after it.
public struct WidgetInstance: Codable, Sendable, Hashable {
    public var id: InstanceID
    public var kind: String
    public var configuration: [String: JSONValue]
    public var created: Date
    public var family: WidgetFamily

    public init(id: InstanceID, kind: String, family: WidgetFamily, configuration: [String: JSONValue], created: Date) {
        self.id = id
        self.kind = kind
        self.family = family
        self.configuration = configuration
        self.created = created
    }
}
