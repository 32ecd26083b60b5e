import WidgetWire

/// When widgetd should ask the provider for a new timeline (WidgetKit's
/// `TimelineReloadPolicy`): `.atEnd`, `.after(date)` or `.never`, written in the coding the
/// daemon reads.
public typealias TimelineReloadPolicy = WidgetWire.TimelineReloadPolicy
