/// The `SelectCharacter` intent of emoji-rangers.json: WWDC's `SelectCharacterIntent`, whose
/// `character` enum parameter becomes a Swift enum decoded from the case id.
struct SelectCharacterIntent: Decodable, Sendable {
    enum Hero: String, Decodable, Sendable {
        case panda, egghead, spouty
    }

    /// widgetd fills in the default (panda); optional so an older configuration still decodes.
    var character: Hero?
}
