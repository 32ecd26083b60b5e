import Foundation
import WidgetProviderKit

/// A widget built from a context clue alone, as RelevanceKit's `RelevanceConfiguration` does:
/// it matters while headphones (or a headset) are connected, and a Smart Stack holding it
/// rotates it to the top then. It gives no dates of its own: the episode is the one up next
/// in a small fixed queue, by the day.
struct UpNextProvider: RelevanceEntriesProvider {
    static let queue: [(show: String, episode: String, minutes: Int)] = [
        ("Swift by Night", "Actors all the way down", 42),
        ("The Daemon Hour", "Timers that survive a suspend", 35),
        ("Bus Stops", "D-Bus signals, explained slowly", 51),
    ]

    func placeholder(in context: Context) -> UpNextEntry {
        UpNextEntry(date: context.date, show: "Podcast", episode: "Up next", minutes: 30)
    }

    func relevance(in context: Context) async throws -> WidgetRelevance {
        WidgetRelevance([WidgetRelevanceAttribute(context: .headphones())])
    }

    func entry(in context: Context) async throws -> UpNextEntry {
        let day = Int(context.date.timeIntervalSince1970 / 86_400)
        let next = Self.queue[day % Self.queue.count]
        return UpNextEntry(date: context.date, show: next.show, episode: next.episode, minutes: next.minutes)
    }
}
