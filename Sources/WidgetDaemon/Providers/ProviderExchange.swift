import Foundation
import WidgetCore
import WidgetProtocol

/// The JSON a provider reads on stdin. The top-level fields describe the first instance of
/// the launch (what a one-instance provider needs); `instances` lists every instance this
/// launch serves, in the order a `{"timelines": [...]}` answer must follow.
struct ProviderRequest: Encodable {
    struct Member: Encodable {
        var instance: InstanceID
        var kind: String
        var family: WidgetFamily
        var configuration: [String: JSONValue]
    }

    var verb: String
    var kind: String
    var family: WidgetFamily
    var configuration: [String: JSONValue]
    var now: Date
    var instance: InstanceID
    var instances: [Member]

    init(verb: String, members: [WidgetInstance], now: Date) {
        let first = members[0]
        self.verb = verb
        kind = first.kind
        family = first.family
        configuration = first.configuration
        self.now = now
        instance = first.id
        instances = members.map {
            Member(instance: $0.id, kind: $0.kind, family: $0.family, configuration: $0.configuration)
        }
    }
}

/// Reads a `timeline` answer (`ProviderAnswer`), its faults as the daemon reports them.
enum TimelineAnswer {
    /// Per instance: its timeline, or the reason the provider gave for it
    /// (`{"error": "..."}` in its place), so one bad instance does not fail the others.
    static func timelines(from data: Data, count: Int) throws(ProviderFailure) -> [Result<Timeline, ProviderFailure>] {
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
