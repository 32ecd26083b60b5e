/// What logind says of one session widgetd counts.
struct SessionHints: Sendable, Equatable {
    var locked = false
    var idle = false
}
