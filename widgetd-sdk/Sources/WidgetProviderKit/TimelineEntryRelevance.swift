import WidgetWire

/// How relevant an entry is, relative to this widget's own other entries (WidgetKit's
/// `TimelineEntryRelevance`): `TimelineEntryRelevance(score:duration:)`, written as widgetd
/// reads it.
public typealias TimelineEntryRelevance = WidgetWire.TimelineEntryRelevance

/// A context clue under which an entry's relevance applies (RelevanceKit's `RelevantContext`):
/// `.location(latitude:longitude:radius:)`, `.headphones()`, `.power(.battery)`,
/// `.session(.locked)`, `.context(["room": "kitchen"])`, combined with `and(_:)`.
public typealias RelevantContext = WidgetWire.RelevantContext
