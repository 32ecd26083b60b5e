import Foundation
import WidgetCore

/// What one line off the socket holds: a request, or a JSON-RPC 2.0 batch of them.
public enum RequestLine: Sendable {
    case single(Result<IncomingRequest, RequestFailure>)
    /// A non-empty JSON array: one outcome per member, in order. A member that is no valid
    /// request (`1`, `[]`, `{"foo": 1}`) has the error and id it would have as a line alone,
    /// and its answer goes in the batch's answer array. Notifications (`isNotification` on
    /// the request, or on the failure when only their params were wrong) get no member
    /// there, and a batch with no member to answer gets no answer line at all.
    case batch([Result<IncomingRequest, RequestFailure>])
}

extension RequestDecoder {
    /// One line as it came off the socket (without its newline). The bytes are copied once
    /// at most, so the requests outlive the buffer; a request without params copies nothing.
    ///
    /// A line that is not JSON is a single -32700 and an empty array a single -32600, as the
    /// specification says; an array of requests is a `.batch`. `fastPath: false` skips
    /// `RequestScanner`, as in `decode`.
    public static func decodeLine(_ line: UnsafeRawBufferPointer, fastPath: Bool = true) -> RequestLine {
        var cursor = JSONCursor(line)
        cursor.skipSpace()
        guard cursor.peek == UInt8(ascii: "[") else { return .single(single(line, owned: nil, fastPath: fastPath)) }
        if fastPath, let members = RequestScanner.batchMembers(line) {
            guard !members.isEmpty else { return .single(.failure(emptyBatch)) }
            let owned = Data(line)
            return .batch(members.map { range in
                single(UnsafeRawBufferPointer(rebasing: line[range]), owned: owned.slice(range), fastPath: true)
            })
        }
        return generalBatch(Data(line), fastPath: fastPath)
    }

    /// A batch line cut into its members without decoding them, when the scanner reads it
    /// whole: the daemon decodes each member as its turn comes, so a batch of thousands is not
    /// decoded in one go while other connections wait. Nil for anything else (a single
    /// request, an empty array, a line only the general decoder reads): `decodeLine` answers
    /// those as before.
    public static func batchMembers(_ line: UnsafeRawBufferPointer) -> BatchMembers? {
        var cursor = JSONCursor(line)
        cursor.skipSpace()
        guard cursor.peek == UInt8(ascii: "["), let ranges = RequestScanner.batchMembers(line), !ranges.isEmpty else { return nil }
        return BatchMembers(owned: Data(line), ranges: ranges)
    }

    static let emptyBatch = RequestFailure(id: nil, error: .invalidRequest("empty batch"))

    /// `JSONDecoder` says whether the line is JSON and how many members it has; only then is
    /// the text cut into members, which is simple for text known to be valid.
    private static func generalBatch(_ line: Data, fastPath: Bool) -> RequestLine {
        let count: Int
        do {
            count = try WidgetJSON.decoder.decode(BatchShape.self, from: line).count
        } catch {
            return .single(.failure(parseFailure(line)))
        }
        guard count > 0 else { return .single(.failure(emptyBatch)) }
        return line.withUnsafeBytes { bytes in
            guard let members = JSONSplitter.arrayMembers(bytes), members.count == count else {
                // Not expected: the splitter reads any valid JSON.
                return .single(.failure(parseFailure(line)))
            }
            return .batch(members.map { range in
                single(UnsafeRawBufferPointer(rebasing: bytes[range]), owned: line.slice(range), fastPath: fastPath)
            })
        }
    }

    private struct BatchShape: Decodable {
        var count: Int

        init(from decoder: any Decoder) throws {
            count = try decoder.unkeyedContainer().count ?? 0
        }
    }
}

/// The members of a batch line, decoded one by one (`RequestDecoder.batchMembers`); each
/// decodes to what `decodeLine` gives for it.
public struct BatchMembers: Sendable {
    let owned: Data
    let ranges: [Range<Int>]

    public var count: Int { ranges.count }

    public func decode(_ index: Int) -> Result<IncomingRequest, RequestFailure> {
        let range = ranges[index]
        return owned.withUnsafeBytes { bytes in
            RequestDecoder.single(UnsafeRawBufferPointer(rebasing: bytes[range]), owned: owned.slice(range), fastPath: true)
        }
    }
}

/// Cuts JSON text already known to be valid into the members of its top-level array: only
/// strings and nesting need following. Also reads the daemon's batch answers in the client.
enum JSONSplitter {
    /// Where each member lies, without surrounding whitespace; nil when the text is not an
    /// array after all.
    static func arrayMembers(_ bytes: UnsafeRawBufferPointer) -> [Range<Int>]? {
        var cursor = JSONCursor(bytes)
        cursor.skipSpace()
        guard cursor.take(UInt8(ascii: "[")) else { return nil }
        var index = cursor.index
        var members: [Range<Int>] = []
        var depth = 0
        var start: Int?
        var end = index
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case 0x20, 0x09, 0x0A, 0x0D:
                index += 1
                continue
            case UInt8(ascii: "\""):
                if start == nil { start = index }
                index += 1
                while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                    index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1
                }
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                if start == nil { start = index }
                depth += 1
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                if depth == 0 {
                    if let start { members.append(start..<end) }
                    return members
                }
                depth -= 1
            case UInt8(ascii: ",") where depth == 0:
                guard let member = start else { return nil }
                members.append(member..<end)
                start = nil
                index += 1
                continue
            default:
                if start == nil { start = index }
            }
            index += 1
            end = index
        }
        return nil
    }
}
