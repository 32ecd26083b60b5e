import Foundation
import WidgetCore

// Params and results of each method. Results may grow new fields; scripts rely on the ones
// named in docs/protocol.md.

public struct ClockAdvanceParams: Codable, Sendable {
    public var seconds: Double
    public init(seconds: Double) { self.seconds = seconds }
}

public struct ClockSetParams: Codable, Sendable {
    public var date: Date
    public init(date: Date) { self.date = date }
}
