import Foundation
import WidgetCore

/// `simulate`: a dry run of the coming hours on a copy of the daemon's state.
public struct SimulateParams: Codable, Sendable, Equatable {
    /// How far ahead, in hours (default 24, at most 168).
    public var hours: Double?
    /// The most items each list of the answer holds (default 100,000); counts stay whole.
    public var limit: Int?
    /// Ask the real providers at each simulated reload, with its virtual date as `now`,
    /// instead of keeping the timeline held (default false). Takes the right to reload every
    /// kind with a provider; at most `maxProviderLaunches` launches run.
    public var runProviders: Bool?

    public init(hours: Double? = nil, limit: Int? = nil, runProviders: Bool? = nil) {
        self.hours = hours
        self.limit = limit
        self.runProviders = runProviders
    }

    public static let defaultHours = 24.0
    public static let maxHours = 168.0
    public static let defaultLimit = 100_000
    /// Provider launches a run with `runProviders` makes; past them the timelines held answer,
    /// and the report is marked truncated.
    public static let maxProviderLaunches = 1_000
}

/// The answer of `simulate`: the core's report as it is, so the daemon, `widgetctl` and the
/// picture (`WidgetPictures`) share one type.
public typealias SimulateResult = SimulationReport
