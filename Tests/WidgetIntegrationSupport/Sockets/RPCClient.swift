import Foundation

/// One persistent JSON-RPC connection to the daemon: a `widgetctl` process per call costs tens
/// of milliseconds, a request over an open socket well under one, so campaigns of thousands of
/// requests drive the daemon this way.
final class RPCClient {
    private let connection: RawConnection
    private var nextID = 0

    init(socket path: String) throws {
        connection = try RawConnection(path: path)
    }

    /// The daemon's JSON-RPC error, or no answer.
    struct Failure: Error, CustomStringConvertible {
        var method: String
        var code: Int?
        var message: String
        var description: String { "\(method): \(code.map(String.init) ?? "no answer") \(message)" }
    }

    /// Sends one request and returns its `result`; throws the error the daemon answered, or
    /// when no answer came within 30 s.
    @discardableResult
    func call(_ method: String, _ params: [String: Any] = [:]) throws -> Any {
        nextID += 1
        let object: [String: Any] = ["jsonrpc": "2.0", "id": nextID, "method": method, "params": params]
        var line = try JSONSerialization.data(withJSONObject: object)
        line.append(0x0A)
        guard connection.send(line), let answerLine = connection.readLineBytes(),
            let answer = (try? JSONSerialization.jsonObject(with: answerLine)) as? [String: Any]
        else {
            throw Failure(method: method, code: nil, message: "no answer within 30 s (or the connection closed)")
        }
        if let error = answer["error"] as? [String: Any] {
            throw Failure(method: method, code: error["code"] as? Int, message: error["message"] as? String ?? "")
        }
        guard answer["id"] as? Int == nextID else {
            throw Failure(method: method, code: nil, message: "answer to another request: \(answer)")
        }
        return answer["result"] ?? NSNull()
    }

    func object(_ method: String, _ params: [String: Any] = [:]) throws -> [String: Any] {
        try call(method, params) as? [String: Any] ?? [:]
    }

    func array(_ method: String, _ params: [String: Any] = [:]) throws -> [[String: Any]] {
        try call(method, params) as? [[String: Any]] ?? []
    }
}
