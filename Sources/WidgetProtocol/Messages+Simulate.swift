import Foundation
import WidgetCore

/// `simulate`: a dry run of the coming hours on a copy of the daemon's state.
public struct SimulateParams: Codable, Sendable, Equatable {
    /// How far ahead, in hours (default 24, at most 168).
    public var hours: Double?
    /// The most items each list of the answer holds (default 100,000); counts stay whole.
    public var limit: Int?

    public init(hours: Double? = nil, limit: Int? = nil) {
        self.hours = hours
        self.limit = limit
    }

    public static let defaultHours = 24.0
    public static let maxHours = 168.0
    public static let defaultLimit = 100_000
}

/// The answer of `simulate`: the core's report as it is, so the daemon, `widgetctl` and the
/// picture (`WidgetPictures`) share one type.
public typealias SimulateResult = SimulationReport
