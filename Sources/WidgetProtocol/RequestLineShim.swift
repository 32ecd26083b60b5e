import Foundation

// Temporary: the batch-aware decoder lands with the fast params decoders.

public enum RequestLine: Sendable {
    case single(Result<IncomingRequest, RequestFailure>)
    case batch([Result<IncomingRequest, RequestFailure>])
}

extension RequestDecoder {
    public static func decodeLine(_ line: UnsafeRawBufferPointer, fastPath: Bool = true) -> RequestLine {
        let data = Data(line)
        guard let first = data.first(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D && $0 != 0x0A }), first == UInt8(ascii: "[") else {
            return .single(decode(data, fastPath: fastPath))
        }
        guard let array = (try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])) as? [Any] else {
            return .single(decode(data, fastPath: fastPath))
        }
        guard !array.isEmpty else {
            return .single(.failure(RequestFailure(id: nil, error: .invalidRequest("an empty batch"))))
        }
        return .batch(array.map { member in
            let bytes = (try? JSONSerialization.data(withJSONObject: member, options: [.fragmentsAllowed])) ?? Data("null".utf8)
            return decode(bytes, fastPath: fastPath)
        })
    }
}
