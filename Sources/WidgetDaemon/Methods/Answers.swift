import Foundation
import Logging
import NIOCore
import WidgetCore
import WidgetProtocol

/// Answer lines.
enum Answers {
    static func success<R: Encodable>(_ id: RPCID?, _ result: R) -> ByteBuffer {
        // The hot answers write their own JSON, byte for byte what JSONEncoder would.
        if let direct = result as? any DirectJSONEncodable {
            return line(direct.successLine(id: id))
        }
        return encode(RPCSuccess(id: id, result: result), id: id)
    }

    /// A buffer holding `bytes` with room for the newline the connection adds.
    static func line<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> ByteBuffer {
        var buffer = ByteBufferAllocator().buffer(capacity: bytes.count + 1)
        buffer.writeBytes(bytes)
        return buffer
    }

    static func failure(_ id: RPCID?, _ error: RPCError) -> ByteBuffer {
        encode(RPCFailure(id: id, error: error), id: id)
    }

    /// An answer JSON cannot hold (a number that is not finite) is a bug in widgetd: the caller
    /// still gets an answer with its id, and the journal says which value it was.
    static func encode<T: Encodable>(_ value: T, id: RPCID?) -> ByteBuffer {
        do {
            return line(try WidgetJSON.encoder.encode(value))
        } catch {
            Logger(label: "widgetd").error(
                "internal error: an answer could not be written as JSON", metadata: ["answer": "\(T.self)", "error": "\(error)"])
            let failure = RPCFailure(id: id, error: RPCError(code: RPCError.Code.internalError, message: "internal error: answer not encodable"))
            guard let data = try? WidgetJSON.encoder.encode(failure) else {
                return ByteBuffer(string: #"{"error":{"code":-32603,"message":"internal error: answer not encodable"},"id":null,"jsonrpc":"2.0"}"#)
            }
            return line(data)
        }
    }
}
