/// What the engine has asked of providers and not yet put behind it.
struct LaunchState {
    /// Provider launches running.
    var book = LaunchBook()
    /// Dynamic options fetched without search text, until invalidated.
    var options = OptionsCache()
}
