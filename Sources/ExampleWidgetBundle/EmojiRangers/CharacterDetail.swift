import Foundation

/// A ranger and its health over time. In the WWDC code-along the game app keeps this state;
/// here it is a pure function of the date, so that every timeline follows from widgetd's
/// clock: each ranger fights a battle every four hours (staggered per ranger), drops to its
/// wounded level and heals one point per minute back to 100.
struct CharacterDetail: Sendable {
    let hero: SelectCharacterIntent.Hero
    let name: String
    let avatar: String
    let heroType: String
    let woundedHealth: Int
    /// Where this ranger's battles fall within the battle interval.
    let battleOffset: TimeInterval

    static let fullHealth = 100
    static let healingInterval: TimeInterval = 60
    static let battleInterval: TimeInterval = 4 * 3600
    /// 2026-01-01T00:00:00Z: battles are counted from here.
    static let firstBattles = Date(timeIntervalSince1970: 1_767_225_600)

    static let available = [
        CharacterDetail(
            hero: .panda, name: "Power Panda", avatar: "🐼", heroType: "Forest Dweller", woundedHealth: 14,
            battleOffset: 0),
        CharacterDetail(
            hero: .egghead, name: "Egghead", avatar: "🥚", heroType: "Brainy Egg", woundedHealth: 67,
            battleOffset: 80 * 60),
        CharacterDetail(
            hero: .spouty, name: "Spouty", avatar: "🐳", heroType: "Deep Sea Goer", woundedHealth: 83,
            battleOffset: 160 * 60),
    ]

    static func detail(for hero: SelectCharacterIntent.Hero) -> CharacterDetail {
        available.first { $0.hero == hero } ?? available[0]
    }

    /// The start of the battle at or before `date`.
    func lastBattle(atOrBefore date: Date) -> Date {
        let since = date.timeIntervalSince(Self.firstBattles) - battleOffset
        let battles = (since / Self.battleInterval).rounded(.down)
        return Self.firstBattles.addingTimeInterval(battleOffset + battles * Self.battleInterval)
    }

    /// When healing after the battle at or before `date` completes.
    func fullHealthDate(after date: Date) -> Date {
        let healingTime = TimeInterval(Self.fullHealth - woundedHealth) * Self.healingInterval
        return lastBattle(atOrBefore: date).addingTimeInterval(healingTime)
    }

    func health(at date: Date) -> Int {
        let healed = Int((date.timeIntervalSince(lastBattle(atOrBefore: date)) / Self.healingInterval).rounded(.down))
        return min(Self.fullHealth, woundedHealth + healed)
    }
}
