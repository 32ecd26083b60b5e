import Foundation
import WidgetCore

/// The live dates one rendering printed, as the earliest instant any of them next reads
/// differently: a bar re-renders then, and not at all for a live date its template leaves out.
/// One per rendering, on the rendering's thread.
final class LiveDateReads {
    private(set) var nextChange: Date?

    /// `live` was printed at `now`.
    func note(_ live: LiveDate, now: Date) {
        guard let next = live.nextChange(after: now) else { return }
        nextChange = min(nextChange ?? next, next)
    }
}
