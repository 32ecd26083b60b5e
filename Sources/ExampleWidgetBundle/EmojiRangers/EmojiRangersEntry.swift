import Foundation
import WidgetProviderKit

/// WWDC's `SimpleEntry` with the character's details inline. `relevance` is a stored property,
/// as in the code-along; it goes to the entry's `relevance`, not into its content.
struct EmojiRangersEntry: TimelineEntry {
    let date: Date
    let relevance: TimelineEntryRelevance?
    let character: String
    let name: String
    let avatar: String
    let heroType: String
    let health: Int
    let fullHealthAt: Date

    init(date: Date, detail: CharacterDetail, health: Int, fullHealthAt: Date) {
        self.date = date
        // The code-along's choice: a ranger at full health matters most, so relevance is health.
        relevance = TimelineEntryRelevance(score: Float(health))
        character = detail.hero.rawValue
        name = detail.name
        avatar = detail.avatar
        heroType = detail.heroType
        self.health = health
        self.fullHealthAt = fullHealthAt
    }
}
