import Foundation
import WidgetCore

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
