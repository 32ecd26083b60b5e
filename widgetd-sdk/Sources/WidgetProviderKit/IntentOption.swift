/// One choice for an `entity` parameter, offered by a provider's `options` verb (WidgetKit's
/// `INObject(identifier:display:)` in an `INObjectCollection`).
public struct IntentOption: Codable, Hashable, Sendable {
    /// The value stored in the configuration when the user picks this option.
    public let id: String
    /// What the configuration UI shows.
    public let display: String

    public init(id: String, display: String) {
        self.id = id
        self.display = display
    }
}

extension Array where Element == IntentOption {
    /// The options whose display text or id contains `search`, ignoring case and diacritics;
    /// all of them for a nil or blank search.
    public func matching(_ search: String?) -> [IntentOption] {
        guard let search = search?.trimmingCharacters(in: .whitespaces), !search.isEmpty else { return self }
        return filter { option in
            [option.display, option.id].contains {
                $0.range(of: search, options: [.caseInsensitive, .diacriticInsensitive]) != nil
            }
        }
    }
}
