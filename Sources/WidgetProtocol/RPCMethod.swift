/// The control socket's methods. All are stable within protocol version 1.
public enum RPCMethod: String, Sendable, CaseIterable {
    case ping
    case status
    case widgets
    /// Re-reads the widgets directories now, as the watcher and SIGHUP do; answers what changed.
    case widgetsReload = "widgets.reload"
    case add
    case remove
    case configure
    case list
    case timeline
    case push
    /// WidgetCenter's `reloadTimelines(ofKind:)`, for one or more kinds.
    case reloadTimelines
    /// WidgetCenter's `reloadAllTimelines()`.
    case reloadAllTimelines
    /// WidgetCenter's `invalidateRelevance(ofKind:)`: fresh relevance from the providers (their
    /// `relevance` verb) without new content, and the stacks ranked again.
    case invalidateRelevance
    /// Runs an action of the entry an instance shows (the provider's `perform` verb), then
    /// reloads the instance; it is invalidated meanwhile.
    case perform
    case schedule
    case budget
    case clock
    case clockAdvance = "clock.advance"
    case clockSet = "clock.set"
    /// A snapshot entry for a configuration UI or gallery (the provider's `snapshot` verb).
    case preview
    /// The provider's placeholder entry.
    case placeholder
    /// Dynamic options of an `entity` parameter (the provider's `options` verb).
    case options
    /// WidgetCenter's `invalidateConfigurationRecommendations()`: forget cached options.
    case invalidateConfigurationRecommendations
    case stackCreate = "stack.create"
    case stackAdd = "stack.add"
    case stackShow = "stack.show"
    case stackList = "stack.list"
    case stackSwipe = "stack.swipe"
    case stackSmartRotate = "stack.smartRotate"
    case stackRemove = "stack.remove"
    /// An intent donation (the user looked at something in an app).
    case donate
    case donationsDelete = "donations.delete"
    /// The donations retained, oldest first.
    case donationsList = "donations.list"
    /// Rotation decisions, oldest first.
    case log
    /// A stack's ranking now, every component of every candidate.
    case explain
    /// Turns the connection into an event stream (`widgetctl watch`): after the answer, each
    /// event arrives as a `{"method": "event", "params": {...}}` notification.
    case subscribe
    /// A host reports the instances it shows now (replacing its previous report).
    case visible
    /// A dry run of the coming hours on a copy of the state: rotations, entry changes, reloads.
    case simulate
}
