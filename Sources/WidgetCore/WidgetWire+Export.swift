// The wire forms (JSON values, the JSON dialect, ISO 8601 dates, the supported years, widget
// families, reload policies, provider requests) live in the SDK's dependency-free WidgetWire,
// so that a provider and the daemon read and write them alike. Every target that works with the
// core works with them, so the core passes them on.
@_exported import WidgetWire
