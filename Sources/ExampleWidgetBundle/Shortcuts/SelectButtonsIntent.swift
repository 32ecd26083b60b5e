/// The `SelectButtons` intent of shortcuts.json: the tutorial's `DynamicConfigurationIntent`
/// with its fixed-size multiple `selectButtons` parameter, here `buttons`, an array of
/// option ids.
struct SelectButtonsIntent: Decodable, Sendable {
    var buttons: [String]?
}
