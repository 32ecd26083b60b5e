import Foundation
import WidgetCore
import WidgetProtocol

/// Reads the answers of the one-instance verbs.
enum CallAnswer {
    static func entry(from data: Data) throws(ProviderFailure) -> WidgetEntry {
        try decode(WidgetEntry.self, data)
    }

    static func options(from data: Data) throws(ProviderFailure) -> [EntityOption] {
        struct Options: Decodable { var options: [EntityOption] }
        return try decode(Options.self, data).options
    }

    /// `{"relevance": [{"date", "score", "duration"?, "when"?}]}`: dated scores, each holding for
    /// its duration (0 or absent: until the next) and under its clues, as a timeline entry's
    /// relevance does.
    static func relevance(from data: Data) throws(ProviderFailure) -> [RelevanceSample] {
        struct Sample: Decodable {
            var date: Date
            var score: Double
            var duration: TimeInterval?
            var when: [ClueAlternative]?
        }
        struct Answer: Decodable { var relevance: [Sample] }
        let samples = try decode(Answer.self, data).relevance
        for (index, sample) in samples.enumerated() {
            guard sample.score.isFinite else { throw .invalidAnswer("relevance[\(index)].score: not a finite number") }
            guard (sample.duration ?? 0) >= 0, (sample.duration ?? 0).isFinite else {
                throw .invalidAnswer("relevance[\(index)].duration: must be >= 0 seconds")
            }
            guard WidgetEntry.windowFits(sample.date, EntryRelevance(score: sample.score, duration: sample.duration ?? 0)) else {
                throw .invalidAnswer("relevance[\(index)].duration: the window would end after \(SupportedDates.latestText)")
            }
        }
        for (index, sample) in samples.enumerated() where sample.when.map({ $0.isEmpty || $0.count > ClueAlternative.maxAlternatives }) ?? false {
            throw .invalidAnswer("relevance[\(index)].when: expected 1 to \(ClueAlternative.maxAlternatives) alternatives")
        }
        return samples.map { RelevanceSample(date: $0.date, score: $0.score, duration: $0.duration ?? 0, when: $0.when) }
    }

    /// `perform`: a JSON object, handed to the host as it is (by convention `{}` or
    /// `{"dialog": TEXT}`).
    static func performed(from data: Data) throws(ProviderFailure) -> JSONValue {
        let value = try decode(JSONValue.self, data)
        guard case .object = value else { throw .invalidAnswer("perform: expected a JSON object, got \(value.compactText.prefix(100))") }
        return value
    }

    private static func decode<T: Decodable>(_ type: T.Type, _ data: Data) throws(ProviderFailure) -> T {
        do {
            return try WidgetJSON.decoder.decode(type, from: data)
        } catch let error as DecodingError {
            do {
                _ = try WidgetJSON.decoder.decode(JSONValue.self, from: data)
            } catch {
                throw .invalidAnswer(TimelineAnswer.notJSON(data))
            }
            throw .invalidAnswer(error.shortDescription)
        } catch {
            throw .invalidAnswer("\(error)")
        }
    }
}
