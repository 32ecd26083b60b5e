import WidgetWire

/// How relevant an entry is, relative to this widget's own other entries (WidgetKit's
/// `TimelineEntryRelevance`): `TimelineEntryRelevance(score:duration:)`, written as widgetd
/// reads it.
public typealias TimelineEntryRelevance = WidgetWire.TimelineEntryRelevance
