import Foundation
import WidgetProviderKit

/// WWDC "Widget Code-Along 2": a timeline with an entry every minute until the ranger is fully
/// healed. Written in the async style.
struct EmojiRangersProvider: IntentTimelineProvider {
    func placeholder(in context: Context) -> EmojiRangersEntry {
        EmojiRangersEntry(
            date: context.date, detail: CharacterDetail.available[0], health: CharacterDetail.fullHealth,
            fullHealthAt: context.date)
    }

    func snapshot(for configuration: SelectCharacterIntent, in context: Context) async -> EmojiRangersEntry {
        let detail = CharacterDetail.detail(for: configuration.character ?? .panda)
        return EmojiRangersEntry(
            date: context.date, detail: detail, health: detail.health(at: context.date),
            fullHealthAt: detail.fullHealthDate(after: context.date))
    }

    /// Healing entries end with the one at full health and policy `.atEnd`, as in the
    /// code-along: the reload then comes when the ranger is healed. A ranger already at full
    /// health gets its rest and then the next battle's healing (battles follow a known
    /// schedule), so the timeline is right whenever the reload happens: coalescing may run it
    /// early, the budget late.
    func timeline(for configuration: SelectCharacterIntent, in context: Context) async -> Timeline<EmojiRangersEntry> {
        let detail = CharacterDetail.detail(for: configuration.character ?? .panda)
        let now = context.date
        let endDate = detail.fullHealthDate(after: now)
        guard now < endDate else {
            let rest = EmojiRangersEntry(date: now, detail: detail, health: CharacterDetail.fullHealth, fullHealthAt: endDate)
            let nextBattle = detail.lastBattle(atOrBefore: now).addingTimeInterval(CharacterDetail.battleInterval)
            return Timeline(entries: [rest] + healing(detail, from: nextBattle), policy: .atEnd)
        }
        var entries = [
            EmojiRangersEntry(date: now, detail: detail, health: detail.health(at: now), fullHealthAt: endDate)
        ]
        // Following entries fall on the healing ticks, so the last one is exactly at full health.
        let interval = CharacterDetail.healingInterval
        let ticksLeft = Int((endDate.timeIntervalSince(now) / interval).rounded(.up))
        for ticksBeforeEnd in stride(from: ticksLeft - 1, through: 0, by: -1) {
            let date = endDate.addingTimeInterval(-TimeInterval(ticksBeforeEnd) * interval)
            entries.append(
                EmojiRangersEntry(date: date, detail: detail, health: detail.health(at: date), fullHealthAt: endDate))
        }
        return Timeline(entries: entries, policy: .atEnd)
    }

    /// One entry a minute from a battle at `start` until full health, the last exactly then.
    private func healing(_ detail: CharacterDetail, from start: Date) -> [EmojiRangersEntry] {
        let end = detail.fullHealthDate(after: start)
        let ticks = Int((end.timeIntervalSince(start) / CharacterDetail.healingInterval).rounded(.up))
        return (0...ticks).map { tick in
            let date = min(end, start.addingTimeInterval(TimeInterval(tick) * CharacterDetail.healingInterval))
            return EmojiRangersEntry(date: date, detail: detail, health: detail.health(at: date), fullHealthAt: end)
        }
    }
}
