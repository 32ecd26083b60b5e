import Foundation
import WidgetProviderKit

/// The next episode of the podcasts followed: shown, and relevant, when headphones connect.
/// Content: `{"show": "Swift by Night", "episode": "Actors all the way down", "minutes": 42}`.
struct UpNextEntry: TimelineEntry {
    let date: Date
    let show: String
    let episode: String
    let minutes: Int
}
