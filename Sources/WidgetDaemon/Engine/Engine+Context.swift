import Foundation
import WidgetCore

extension Engine {
    /// Where the session's watchers hand what they read: one step that takes the readings in,
    /// evaluates the stacks whose clues changed and carries out the reloads a changed budget
    /// condition released (docs/clues.md).
    func observe(_ readings: [ContextReading]) {
        guard !readings.isEmpty else { return }
        attempt(Attempt(
            make: { self.state.observe(readings, now: self.now) },
            applied: {},
            refused: { refusal in self.io.logger.debug("context not taken", metadata: ["error": "\(refusal)"]) },
            settlement: nil))
    }
}
