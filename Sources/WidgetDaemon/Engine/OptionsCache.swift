import Foundation
import WidgetCore
import WidgetProtocol

/// Dynamic options fetched without search text, per kind, family, parameter and the other
/// values chosen, until invalidated or descriptors are read again.
struct OptionsCache {
    var cached: [OptionsKey: [EntityOption]] = [:]
    /// Bumped by every invalidation, so a fetch that started before one is not cached.
    var generation = 0

    /// Drops the lists of `kind`, of `onlyKinds`, or all; returns how many went.
    @discardableResult
    mutating func invalidate(kind: String?, onlyKinds: Set<String>?) -> Int {
        let before = cached.count
        generation += 1
        if let kind {
            cached = cached.filter { $0.key.kind != kind }
        } else if let onlyKinds {
            cached = cached.filter { !onlyKinds.contains($0.key.kind) }
        } else {
            cached.removeAll()
        }
        return before - cached.count
    }
}
