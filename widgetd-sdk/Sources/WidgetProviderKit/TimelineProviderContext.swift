import Foundation
import WidgetWire

/// What the provider knows about the request it answers (WidgetKit's
/// `TimelineProviderContext`), plus what widgetd adds.
///
/// `date` is widgetd's clock, which may be virtual (`widgetd --clock virtual:...`): derive
/// every entry date and policy date from it and never call `Date()`, or timelines land in
/// the wrong place on a virtual clock.
public struct TimelineProviderContext: Sendable {
    /// The kind being served, as in its descriptor.
    public let kind: String

    /// The size of the instance, or of the preview being asked for.
    public let family: WidgetFamily

    /// The daemon's "now": use it where a WidgetKit provider writes `Date()`.
    public let date: Date

    /// True when a snapshot is for the widget gallery rather than a placed widget.
    public let isPreview: Bool

    /// The instance id for `timeline`, `relevance` and `perform`; nil for `snapshot`,
    /// `placeholder` and `options`.
    public let instance: String?

    /// The effective configuration (defaults filled in, hidden parameters removed); an
    /// `IntentTimelineProvider` gets the same values decoded as its `Intent`.
    public let configuration: ConfigurationValues

    /// Builds a context, for unit tests that call a provider directly.
    public init(
        kind: String = "", family: WidgetFamily = .systemSmall, date: Date, isPreview: Bool = false,
        instance: String? = nil, configuration: ConfigurationValues = ConfigurationValues()
    ) {
        self.kind = kind
        self.family = family
        self.date = date
        self.isPreview = isPreview
        self.instance = instance
        self.configuration = configuration
    }
}
