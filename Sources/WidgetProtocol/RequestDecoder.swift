import Foundation
import WidgetCore

/// One request line, checked against JSON-RPC 2.0; params stay raw until the handler knows
/// their type.
public struct IncomingRequest: Sendable {
    public var id: RPCID?
    /// Only a request without an `id` member is a notification; `"id": null` is answered.
    public var hasID: Bool
    public var method: String
    /// The whole line, decoded again for the typed params.
    public var line: Data
    public var hasParams: Bool
    /// Where the `params` object lies in `line`, when the fast path read the envelope: the
    /// params are then decoded from those bytes alone.
    var paramsRange: Range<Data.Index>?

    init(id: RPCID?, hasID: Bool, method: String, line: Data, hasParams: Bool, paramsRange: Range<Data.Index>? = nil) {
        self.id = id
        self.hasID = hasID
        self.method = method
        self.line = line
        self.hasParams = hasParams
        self.paramsRange = paramsRange
    }

    /// A request without an id gets no answer (JSON-RPC notification).
    public var isNotification: Bool { !hasID }

    /// Decodes `params` as `P`; absent params decode as an empty object. A mismatch is an
    /// invalid-params error that names the field.
    public func params<P: Decodable>(_ type: P.Type) throws(RPCError) -> P {
        do {
            if let paramsRange {
                do {
                    return try WidgetJSON.decoder.decode(P.self, from: line[paramsRange])
                } catch let error as DecodingError {
                    // The same text as through the box below: paths start at `params`.
                    throw RPCError.invalidParams(error.readable(root: "params"))
                }
            }
            if hasParams {
                do {
                    return try WidgetJSON.decoder.decode(ParamsBox<P>.self, from: line).params
                } catch let error as DecodingError {
                    // The coding path already starts at the `params` key of the box.
                    throw RPCError.invalidParams(error.readable(root: ""))
                }
            }
            return try WidgetJSON.decoder.decode(P.self, from: Data("{}".utf8))
        } catch let error as RPCError {
            throw error
        } catch let error as DecodingError {
            throw RPCError.invalidParams(error.readable(root: "params"))
        } catch {
            throw RPCError.invalidParams("\(error)")
        }
    }

    private struct ParamsBox<P: Decodable>: Decodable {
        var params: P
    }
}

/// Turns a line into a request, or into the error to answer with (and the id, when readable).
public enum RequestDecoder {
    /// `fastPath: false` skips `RequestScanner` (for the differential fuzzer and tests, which
    /// check that both paths give the same request).
    public static func decode(_ line: Data, fastPath: Bool = true) -> Result<IncomingRequest, RequestFailure> {
        if fastPath, let request = RequestScanner.scan(line) { return .success(request) }
        let envelope: Envelope
        do {
            envelope = try WidgetJSON.decoder.decode(Envelope.self, from: line)
        } catch {
            let detail = String(data: line, encoding: .utf8) == nil ? "not UTF-8" : "not valid JSON"
            return .failure(RequestFailure(id: nil, error: .parseError(detail)))
        }
        guard envelope.isObject else {
            return .failure(RequestFailure(id: nil, error: .invalidRequest("expected a JSON object")))
        }
        let id: RPCID?
        switch envelope.id {
        case .absent, .null: id = nil
        case .valid(let value): id = value
        case .invalid:
            return .failure(RequestFailure(id: nil, error: .invalidRequest("id must be an integer or a string")))
        }
        guard envelope.version == "2.0" else {
            return .failure(RequestFailure(id: id, error: .invalidRequest("jsonrpc must be \"2.0\"")))
        }
        guard let method = envelope.method else {
            return .failure(RequestFailure(id: id, error: .invalidRequest("method must be a string")))
        }
        let hasID = envelope.id != .absent
        switch envelope.params {
        case .absentOrNull:
            return .success(IncomingRequest(id: id, hasID: hasID, method: method, line: line, hasParams: false))
        case .object:
            return .success(IncomingRequest(id: id, hasID: hasID, method: method, line: line, hasParams: true))
        case .other:
            return .failure(RequestFailure(id: id, error: .invalidParams("params must be an object")))
        }
    }

    /// The members the envelope checks need, read by type without decoding `params` (the
    /// handler decodes those once it knows their type) and without throwing for a wrong type:
    /// every request passes through here.
    private struct Envelope: Decodable {
        enum IDField: Equatable { case absent, null, valid(RPCID), invalid }
        enum ParamsField { case absentOrNull, object, other }
        private enum Key: String, CodingKey { case jsonrpc, id, method, params }
        private struct AnyKey: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init?(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        var isObject = false
        var version: String?
        var id = IDField.absent
        var method: String?
        var params = ParamsField.absentOrNull

        init(from decoder: any Decoder) throws {
            guard let container = try? decoder.container(keyedBy: Key.self) else { return }
            isObject = true
            version = try? container.decode(String.self, forKey: .jsonrpc)
            method = try? container.decode(String.self, forKey: .method)
            if container.contains(.id) {
                if (try? container.decodeNil(forKey: .id)) == true {
                    id = .null
                } else if let number = try? container.decode(Int64.self, forKey: .id) {
                    id = .valid(.number(number))
                } else if let text = try? container.decode(String.self, forKey: .id) {
                    id = .valid(.string(text))
                } else {
                    id = .invalid
                }
            }
            if container.contains(.params), (try? container.decodeNil(forKey: .params)) != true {
                params = (try? container.nestedContainer(keyedBy: AnyKey.self, forKey: .params)) != nil ? .object : .other
            }
        }
    }
}

public struct RequestFailure: Error, Sendable {
    public var id: RPCID?
    public var error: RPCError
}

extension DecodingError {
    /// `params.family: expected String`-style text: the path and what was wrong.
    public func readable(root: String) -> String {
        func path(_ keys: [any CodingKey]) -> String {
            keys.reduce(root) { text, key in
                if let index = key.intValue { return "\(text)[\(index)]" }
                return text.isEmpty ? key.stringValue : "\(text).\(key.stringValue)"
            }
        }
        switch self {
        case .keyNotFound(let key, let context):
            return "\(path(context.codingPath + [key])): required"
        case .typeMismatch(let type, let context):
            return "\(path(context.codingPath)): expected \(Self.describe(type))"
        case .valueNotFound(let type, let context):
            return "\(path(context.codingPath)): expected \(Self.describe(type)), got null"
        case .dataCorrupted(let context):
            return "\(path(context.codingPath)): \(context.debugDescription)"
        @unknown default:
            return "\(self)"
        }
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Bool.Type: "a boolean"
        case is Int.Type, is Int64.Type: "an integer"
        case is Double.Type: "a number"
        default: "\(type)".contains("Array") ? "an array" : "an object"
        }
    }
}
