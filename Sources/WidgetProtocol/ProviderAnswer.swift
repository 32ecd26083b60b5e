import Foundation
import WidgetCore

/// A provider's answer to `timeline`: one WidgetTimeline (valid for every instance of the launch)
/// or `{"timelines": [...]}` with one per instance, in request order, where an element
/// `{"error": "reason"}` without `entries` fails just that instance.
public enum ProviderAnswer {
    /// Why an answer, or one instance's part of it, cannot be used: the text a provider's
    /// author reads after `invalid answer: `.
    public struct Fault: Error, Sendable, Equatable {
        public var reason: String

        public init(_ reason: String) {
            self.reason = reason
        }
    }

    /// Per instance: its timeline, or why not. Read straight from the bytes
    /// (`scannedTimelines`); an answer that scan does not take goes to `decodedTimelines`,
    /// whose value or error is the reference.
    public static func timelines(from data: Data, count: Int) throws(Fault) -> [Result<WidgetTimeline, Fault>] {
        if let scanned = data.withUnsafeBytes({ scannedTimelines($0, count: count) }) { return scanned }
        return try decodedTimelines(from: data, count: count)
    }

    /// Through `JSONDecoder`: the whole answer as a `JSONValue`, then each timeline in it
    /// encoded again and decoded as `WidgetTimeline`, which says where a timeline went wrong.
    public static func decodedTimelines(from data: Data, count: Int) throws(Fault) -> [Result<WidgetTimeline, Fault>] {
        // The decoder takes text that is not JSON (a trailing comma), which the schema's
        // validators and the scan refuse: the syntax is checked first so that all agree.
        guard JSONSyntax.check(Array(data)) == nil else { throw Fault(notJSON(data)) }
        let json: JSONValue
        do {
            json = try WidgetJSON.decoder.decode(JSONValue.self, from: data)
        } catch {
            throw Fault(notJSON(data))
        }
        guard case .object(let object) = json else { throw Fault("expected a JSON object") }
        do {
            if let many = object["timelines"] {
                guard case .array(let items) = many else { throw Fault(".timelines must be an array") }
                guard items.count == count else { throw Fault("\(items.count) timelines for \(count) instances") }
                return items.enumerated().map { index, item -> Result<WidgetTimeline, Fault> in
                    if case .object(let fields) = item, fields["entries"] == nil, case .string(let reason)? = fields["error"] {
                        return .failure(Fault("the provider reported: \(reason)"))
                    }
                    do {
                        return .success(try decode(WidgetTimeline.self, item))
                    } catch let error as DecodingError {
                        return .failure(Fault(".timelines[\(index)]\(error.shortDescription)"))
                    } catch {
                        return .failure(Fault("\(error)"))
                    }
                }
            }
            let one = try decode(WidgetTimeline.self, json)
            return Array(repeating: .success(one), count: count)
        } catch let fault as Fault {
            throw fault
        } catch let error as DecodingError {
            throw Fault(error.shortDescription)
        } catch {
            throw Fault("\(error)")
        }
    }

    /// Says where the JSON went wrong (line and column), so a provider's author can find the
    /// fault in a long answer; JSONDecoder does not say.
    public static func notJSON(_ data: Data) -> String {
        guard !data.isEmpty else { return "empty output" }
        let text = String(decoding: data.prefix(80), as: UTF8.self)
        if let error = JSONSyntax.check(Array(data)) { return "not JSON (\(error)): \(text)" }
        return "not JSON (not UTF-8, or a number out of range): \(text)"
    }

    private static func decode<T: Decodable>(_ type: T.Type, _ value: JSONValue) throws -> T {
        try WidgetJSON.decoder.decode(type, from: WidgetJSON.encoder.encode(value))
    }
}
