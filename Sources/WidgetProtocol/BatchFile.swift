import Foundation
import WidgetCore

/// The file `widgetctl batch` sends: a JSON array of calls, each
/// `{"method": M, "params": {...}, "id": ID, "notification": true}` where only `method` is
/// required. A call is answered unless it says `"notification": true`; one without an `id`
/// gets one assigned. A notification has no id (it is what makes one).
public enum BatchFile {
    public static func calls(from data: Data) throws(BatchFileError) -> [BatchCall] {
        let entries: [Entry]
        do {
            entries = try WidgetJSON.decoder.decode([Entry].self, from: data)
        } catch let error as DecodingError {
            switch error {
            case .dataCorrupted(let context) where context.codingPath.isEmpty:
                throw BatchFileError("not valid JSON")
            case .typeMismatch(_, let context) where context.codingPath.isEmpty:
                throw BatchFileError("expected a JSON array of calls")
            default:
                throw BatchFileError(error.readable(root: ""))
            }
        } catch {
            throw BatchFileError("\(error)")
        }
        guard !entries.isEmpty else { throw BatchFileError("the batch is empty") }
        var ids = Set<RPCID>()
        for (index, entry) in entries.enumerated() {
            guard let id = entry.id else { continue }
            guard !entry.notification else { throw BatchFileError("[\(index)]: a notification has no id") }
            guard ids.insert(id).inserted else { throw BatchFileError("[\(index)].id: \(id) is used twice") }
        }
        return entries.map { BatchCall(method: $0.method, params: $0.params, notification: $0.notification, id: $0.id) }
    }

    private struct Entry: Decodable {
        var method: String
        var params: JSONValue?
        var id: RPCID?
        var notification: Bool

        private enum CodingKeys: String, CodingKey, CaseIterable { case method, params, id, notification }

        private struct AnyKey: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init?(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        init(from decoder: any Decoder) throws {
            // A misspelt `notification` must not quietly turn into a call that waits for an answer.
            let all = try decoder.container(keyedBy: AnyKey.self)
            if let unknown = all.allKeys.first(where: { CodingKeys(stringValue: $0.stringValue) == nil }) {
                throw DecodingError.dataCorruptedError(
                    forKey: unknown, in: all, debugDescription: "unknown member (method, params, id, notification)")
            }
            let container = try decoder.container(keyedBy: CodingKeys.self)
            method = try container.decode(String.self, forKey: .method)
            params = try container.decodeIfPresent(JSONValue.self, forKey: .params)
            id = try container.decodeIfPresent(RPCID.self, forKey: .id)
            notification = try container.decodeIfPresent(Bool.self, forKey: .notification) ?? false
        }
    }
}

public struct BatchFileError: Error, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}
