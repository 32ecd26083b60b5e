import Foundation
import WidgetCore

// Params and results of each method. Results may grow new fields; scripts rely on the ones
// named in docs/protocol.md.

public struct ClockAdvanceParams: Codable, Sendable {
    public var seconds: Double
    /// The time passes as in a suspend: the clock moves but nothing due runs until the resume
    /// is noticed (logind's `PrepareForSleep(false)`, or the next clock move or change).
    public var asleep: Bool?
    public init(seconds: Double, asleep: Bool? = nil) {
        self.seconds = seconds
        self.asleep = asleep
    }
}

public struct ClockSetParams: Codable, Sendable {
    public var date: Date
    public init(date: Date) { self.date = date }
}
