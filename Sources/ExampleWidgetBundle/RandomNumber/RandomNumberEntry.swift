import Foundation
import WidgetProviderKit

/// The tutorial's `RandomNumberWidgetEntry`, plus the range it was drawn from.
/// Content: `{"number": 42, "range": "1...100"}`.
struct RandomNumberEntry: TimelineEntry {
    let date: Date
    let number: Int
    let range: String
}
