import Foundation
import WidgetCore

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

/// Reads a `timeline` answer: one Timeline JSON (valid for every instance of the launch) or
/// `{"timelines": [...]}` with one per instance, in request order.
enum TimelineAnswer {
    /// Per instance: its timeline, or the reason the provider gave for it
    /// (`{"error": "..."}` in its place), so one bad instance does not fail the others.
    static func timelines(from data: Data, count: Int) throws(ProviderFailure) -> [Result<Timeline, ProviderFailure>] {
        let json: JSONValue
        do {
            json = try WidgetJSON.decoder.decode(JSONValue.self, from: data)
        } catch {
            throw .invalidAnswer(notJSON(data))
        }
        guard case .object(let object) = json else { throw .invalidAnswer("expected a JSON object") }
        do {
            if let many = object["timelines"] {
                guard case .array(let items) = many else { throw ProviderFailure.invalidAnswer(".timelines must be an array") }
                guard items.count == count else {
                    throw ProviderFailure.invalidAnswer("\(items.count) timelines for \(count) instances")
                }
                return items.enumerated().map { index, item -> Result<Timeline, ProviderFailure> in
                    if case .object(let fields) = item, fields["entries"] == nil, case .string(let reason)? = fields["error"] {
                        return .failure(.invalidAnswer("the provider reported: \(reason)"))
                    }
                    do {
                        return .success(try decode(Timeline.self, item))
                    } catch let error as DecodingError {
                        return .failure(.invalidAnswer(".timelines[\(index)]\(error.shortDescription)"))
                    } catch {
                        return .failure(.invalidAnswer("\(error)"))
                    }
                }
            }
            let one = try decode(Timeline.self, json)
            return Array(repeating: .success(one), count: count)
        } catch let failure as ProviderFailure {
            throw failure
        } catch let error as DecodingError {
            throw .invalidAnswer(error.shortDescription)
        } catch {
            throw .invalidAnswer("\(error)")
        }
    }

    /// Says where the JSON went wrong, so a provider's author can find the fault in a long answer.
    /// JSONDecoder does not say on Linux; JSONSerialization does ("around character 18"),
    /// and runs only on this failure path.
    static func notJSON(_ data: Data) -> String {
        guard !data.isEmpty else { return "empty output" }
        let text = String(decoding: data.prefix(80), as: UTF8.self)
        do {
            _ = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        } catch {
            if var reason = (error as NSError).userInfo["NSDebugDescription"] as? String {
                if reason.hasSuffix(".") { reason.removeLast() }
                return "not JSON (\(reason.prefix(1).lowercased() + reason.dropFirst().prefix(200))): \(text)"
            }
        }
        return "not JSON: \(text)"
    }

    private static func decode<T: Decodable>(_ type: T.Type, _ value: JSONValue) throws -> T {
        try WidgetJSON.decoder.decode(type, from: WidgetJSON.encoder.encode(value))
    }
}

extension DecodingError {
    var shortDescription: String {
        func path(_ keys: [any CodingKey]) -> String {
            keys.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        }
        switch self {
        case .keyNotFound(let key, let context): return "\(path(context.codingPath + [key])) is required"
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            return "\(path(context.codingPath)) has the wrong type"
        case .dataCorrupted(let context): return "\(path(context.codingPath)): \(context.debugDescription)"
        @unknown default: return "\(self)"
        }
    }
}
