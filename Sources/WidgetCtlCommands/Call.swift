import Foundation
import WidgetCore
import WidgetProtocol
import WidgetdClient

extension GlobalOptions {
    /// Calls the daemon and returns the typed result, exit statuses mapped.
    func call<P: Encodable, R: Decodable>(_ method: RPCMethod, _ params: P, as type: R.Type = R.self) throws(CtlFailure) -> R {
        let connection = try connect()
        do {
            return try connection.call(method, params, as: type)
        } catch {
            throw CtlFailure(error)
        }
    }

    /// Prints `value` as pretty JSON when `--json`, else runs `human`.
    func emit<T: Encodable>(_ value: T, human: () -> Void) {
        if json {
            let data = (try? WidgetJSON.prettyEncoder.encode(value)) ?? Data("null".utf8)
            print(String(decoding: data, as: UTF8.self))
        } else {
            human()
        }
    }
}

/// `--set NAME=VALUE` pairs: the value is JSON when it parses as JSON, else a string.
enum Assignments {
    static func parse(_ items: [String]) throws(CtlFailure) -> [String: JSONValue] {
        var result: [String: JSONValue] = [:]
        for item in items {
            guard let equals = item.firstIndex(of: "="), equals != item.startIndex else {
                throw .usage("--set wants NAME=VALUE, got '\(item)'")
            }
            result[String(item[..<equals])] = JSONValue.lenient(String(item[item.index(after: equals)...]))
        }
        return result
    }
}
