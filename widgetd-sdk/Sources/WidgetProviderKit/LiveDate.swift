import WidgetWire

/// A date that hosts show as the time goes by: WidgetKit's `Text(date, style: .timer)` (and
/// `.relative`, `.offset`, `.time`, `.date`), written as a property of the entry instead of a
/// view. A countdown then stays right between entries, with no entry per minute:
///
/// ```swift
/// struct TrainEntry: TimelineEntry {
///     let date: Date
///     let text: String
///     let leaves: LiveDate  // LiveDate(date: departure, style: .timer)
/// }
/// // "content": {"text": "08:12 to Bern", "leaves": {"$date": "2026-01-05T08:12:00Z", "style": "timer"}}
/// ```
///
/// A host reads it as `4:59`, then `4:58`, …; a template names it like any field
/// (`{{leaves}}`, or `{{relative(leaves)}}` for another style).
public typealias LiveDate = WidgetWire.LiveDate
