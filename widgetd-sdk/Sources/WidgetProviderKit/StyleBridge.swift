import Foundation

/// Joins the two provider styles. Each default form calls the other one, so a provider that
/// implements neither would recurse for ever. While an async default waits on a
/// completion-handler form, a task-local names that form; if the default of that same form
/// is reached, the provider implements neither, and the process says so and stops.
enum StyleBridge {
    @TaskLocal static var awaitedForm: String?

    static func awaitCompletion<Value: Sendable>(
        of form: String, _ start: (@escaping @Sendable (Value) -> Void) -> Void
    ) async -> Value {
        await withCheckedContinuation { continuation in
            $awaitedForm.withValue(form) {
                start { continuation.resume(returning: $0) }
            }
        }
    }

    /// Called by the completion-handler defaults. A missing method is a build error in
    /// WidgetKit; here it is found at run time, so stop with one line that the daemon logs as
    /// the reason of the failed reload.
    static func ensureImplemented(_ form: String, or asyncForm: String, by provider: some Any) {
        guard awaitedForm == form else { return }
        let message = "\(type(of: provider)) must implement \(form) or \(asyncForm)\n"
        FileHandle.standardError.write(Data(message.utf8))
        exit(70)
    }
}
