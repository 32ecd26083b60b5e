import Foundation
import WidgetCore

/// One request, checked against JSON-RPC 2.0; params stay as bytes until the handler knows
/// their type.
///
/// It owns those bytes (a request may wait in a queue after the socket's buffer is reused):
/// the params object alone when the fast path found it, else the request's own text. A
/// request without params holds no bytes at all.
public struct IncomingRequest: Sendable {
    public var id: RPCID?
    /// Only a request without an `id` member is a notification; `"id": null` is answered.
    public var hasID: Bool
    public var method: String
    var paramsBytes: ParamsBytes

    enum ParamsBytes: Sendable {
        case absent
        /// The `params` object's own text, found by `RequestScanner`.
        case object(Data)
        /// The whole request object's text, for the general decoder to find `params` in.
        case request(Data)
    }

    init(id: RPCID?, hasID: Bool, method: String, params: ParamsBytes) {
        self.id = id
        self.hasID = hasID
        self.method = method
        self.paramsBytes = params
    }

    /// A request without an id gets no answer (JSON-RPC notification).
    public var isNotification: Bool { !hasID }

    /// The request has a `params` object (absent and `null` are the same: none).
    public var hasParams: Bool {
        if case .absent = paramsBytes { return false }
        return true
    }

    /// Decodes `params` as `P` with `JSONDecoder`; absent params decode as an empty object.
    /// A mismatch is an invalid-params error that names the field.
    func decodedParams<P: Decodable>(_ type: P.Type) throws(RPCError) -> P {
        do {
            switch paramsBytes {
            case .object(let bytes):
                do {
                    return try WidgetJSON.decoder.decode(P.self, from: bytes)
                } catch let error as DecodingError {
                    // The same text as through the box below: paths start at `params`.
                    throw RPCError.invalidParams(error.readable(root: "params"))
                }
            case .request(let bytes):
                do {
                    return try WidgetJSON.decoder.decode(ParamsBox<P>.self, from: bytes).params
                } catch let error as DecodingError {
                    // The coding path already starts at the `params` key of the box. One
                    // without a path (Foundation's "not valid JSON" for a number it cannot
                    // represent) is about the params too, as the fast path says.
                    throw RPCError.invalidParams(error.readable(root: error.hasCodingPath ? "" : "params"))
                }
            case .absent:
                return try WidgetJSON.decoder.decode(P.self, from: Data("{}".utf8))
            }
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
    /// One request (an array is not read as a batch here: `decodeLine` does that).
    /// `fastPath: false` skips `RequestScanner` (for the differential fuzzer and tests, which
    /// check that both paths give the same request).
    public static func decode(_ line: Data, fastPath: Bool = true) -> Result<IncomingRequest, RequestFailure> {
        line.withUnsafeBytes { single($0, owned: line, fastPath: fastPath) }
    }

    /// `owned`: the same bytes as `bytes` in a `Data` the request may keep (slices of it share
    /// its storage); nil to copy what the request needs.
    static func single(
        _ bytes: UnsafeRawBufferPointer, owned: Data?, fastPath: Bool
    ) -> Result<IncomingRequest, RequestFailure> {
        if fastPath, let envelope = RequestScanner.envelope(bytes) {
            let params: IncomingRequest.ParamsBytes
            if let range = envelope.params {
                params = .object(owned.map { $0.slice(range) } ?? Data(UnsafeRawBufferPointer(rebasing: bytes[range])))
            } else {
                params = .absent
            }
            return .success(IncomingRequest(id: envelope.id, hasID: envelope.hasID, method: envelope.method, params: params))
        }
        return general(owned ?? Data(bytes))
    }

    /// The general decoder: `JSONDecoder` reads the envelope, and every error answer comes
    /// from here.
    static func general(_ line: Data) -> Result<IncomingRequest, RequestFailure> {
        let envelope: Envelope
        do {
            envelope = try WidgetJSON.decoder.decode(Envelope.self, from: line)
        } catch {
            return .failure(parseFailure(line))
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
            return .success(IncomingRequest(id: id, hasID: hasID, method: method, params: .absent))
        case .object:
            return .success(IncomingRequest(id: id, hasID: hasID, method: method, params: .request(line)))
        case .other:
            return .failure(
                RequestFailure(id: id, error: .invalidParams("params must be an object"), isNotification: !hasID))
        }
    }

    static func parseFailure(_ line: Data) -> RequestFailure {
        let detail = String(data: line, encoding: .utf8) == nil ? "not UTF-8" : "not valid JSON"
        return RequestFailure(id: nil, error: .parseError(detail))
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
    /// The envelope was a valid notification (no `id`) and only its params were wrong.
    /// JSON-RPC 2.0 answers no notification, not even with an error, so a batch's answer has
    /// no member for it; a single line has always been answered (with a null id).
    public var isNotification = false
}

extension Data {
    /// `range` counted from the start of this `Data`, sharing its storage.
    func slice(_ range: Range<Int>) -> Data {
        self[(startIndex + range.lowerBound)..<(startIndex + range.upperBound)]
    }
}
