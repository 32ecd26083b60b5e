import Foundation
import Logging
import WidgetdClient

public struct ServerError: Error, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}
