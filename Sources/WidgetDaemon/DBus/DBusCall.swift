import Foundation
import WidgetCore
import WidgetProtocol

/// A call of a `WidgetCenter1` method as the socket sees it: the JSON-RPC request line its
/// in-args make, and the D-Bus reply the engine's answer line makes.
struct DBusCall: Sendable {
    let method: DBusMethod
    let params: JSONValue

    /// `args`: the in-args read as JSON, already checked against the method's signature.
    init(_ method: DBusMethod, args: [JSONValue]) {
        self.method = method
        params = method.params(args)
    }

    /// What a D-Bus caller is answered.
    enum Reply: Sendable, Hashable {
        case values([DBusValue])
        /// A full error name (`org.widgetd.WidgetCenter1.Error.NAME`) and its message.
        case error(name: String, message: String)
    }

    func requestLine(id: Int) -> [UInt8] {
        let request = Request(id: id, method: method.spec.name, params: params)
        // JSONValue always encodes (its numbers came from D-Bus doubles, which may not be
        // finite: those fail, and the engine then answers the empty line as a parse error).
        return Array((try? WidgetJSON.encoder.encode(request)) ?? Data())
    }

    /// The reply for the engine's answer line (nil: it answered nothing, which a request with
    /// an id never gets).
    func reply(to answer: [UInt8]?) -> Reply {
        guard let answer, let decoded = try? WidgetJSON.decoder.decode(Answer.self, from: Data(answer)) else {
            return .error(name: DBusErrorName.name(for: RPCError.Code.internalError), message: "internal error: no answer")
        }
        if let error = decoded.error {
            return .error(name: DBusErrorName.name(for: error.code), message: error.message)
        }
        guard let values = method.result(decoded.result ?? .null) else {
            return .error(
                name: DBusErrorName.name(for: RPCError.Code.internalError),
                message: "internal error: the result of '\(method.spec.name)' is not what \(method.name) returns")
        }
        return .values(values)
    }

    private struct Request: Encodable {
        var jsonrpc = "2.0"
        var id: Int
        var method: String
        var params: JSONValue
    }

    private struct Answer: Decodable {
        var result: JSONValue?
        var error: RPCError?
    }
}
