import Foundation
import WidgetCore
import WidgetProtocol

/// Reads a `timeline` answer (`ProviderAnswer`), its faults as the daemon reports them.
enum TimelineAnswer {
    /// Per instance: its timeline, or the reason the provider gave for it
    /// (`{"error": "..."}` in its place), so one bad instance does not fail the others.
    static func timelines(from data: Data, count: Int) throws(ProviderFailure) -> [Result<WidgetTimeline, ProviderFailure>] {
        do {
            return try ProviderAnswer.timelines(from: data, count: count).map { answer in
                answer.mapError { .invalidAnswer($0.reason) }
            }
        } catch {
            throw .invalidAnswer(error.reason)
        }
    }

    static func notJSON(_ data: Data) -> String {
        ProviderAnswer.notJSON(data)
    }
}
