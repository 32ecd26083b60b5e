import Foundation
import WidgetCore

/// A JSON-RPC id: a number or a string. Requests without one are notifications.
public enum RPCID: Codable, Sendable, Hashable, CustomStringConvertible {
    case number(Int64)
    case string(String)

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let number = try? container.decode(Int64.self) {
            self = .number(number)
        } else {
            self = .string(try container.decode(String.self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .number(let number): try container.encode(number)
        case .string(let text): try container.encode(text)
        }
    }

    public var description: String {
        switch self {
        case .number(let number): "\(number)"
        case .string(let text): text
        }
    }
}

/// What goes on the wire: one request per line.
public struct RPCRequest<Params: Encodable>: Encodable {
    public var jsonrpc = "2.0"
    public var id: RPCID?
    public var method: String
    public var params: Params

    public init(id: RPCID?, method: String, params: Params) {
        self.id = id
        self.method = method
        self.params = params
    }
}

/// A successful answer. `id` is always written, null when the request had none we could read.
public struct RPCSuccess<Result: Encodable>: Encodable {
    public var id: RPCID?
    public var result: Result

    public init(id: RPCID?, result: Result) {
        self.id = id
        self.result = result
    }

    private enum CodingKeys: String, CodingKey { case jsonrpc, id, result }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode("2.0", forKey: .jsonrpc)
        try container.encode(id, forKey: .id)
        try container.encode(result, forKey: .result)
    }
}

public struct RPCFailure: Encodable {
    public var id: RPCID?
    public var error: RPCError

    public init(id: RPCID?, error: RPCError) {
        self.id = id
        self.error = error
    }

    private enum CodingKeys: String, CodingKey { case jsonrpc, id, error }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode("2.0", forKey: .jsonrpc)
        try container.encode(id, forKey: .id)
        try container.encode(error, forKey: .error)
    }
}

/// A response as a client reads it: first the id and error, then the typed result.
public struct RPCResponseHead: Decodable {
    public var id: RPCID?
    public var error: RPCError?
}

public struct RPCResultBox<Result: Decodable>: Decodable {
    public var result: Result
}

/// An empty object, for methods without params or without a meaningful result.
public struct EmptyParams: Codable, Sendable, Hashable {
    public init() {}
}
