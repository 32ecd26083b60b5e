import Foundation
import WidgetCore
import WidgetProtocol

struct OptionsKey: Hashable, Sendable {
    var kind: String
    var family: WidgetFamily
    var parameter: String
    var configuration: [String: JSONValue]
}
