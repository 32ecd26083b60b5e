import Foundation
import WidgetWire

/// Accessors for `multiple` parameters: nil unless the value is an array whose every element
/// has the type asked for.
extension ConfigurationValues {
    public func strings(_ name: String) -> [String]? { array(name, \.string) }

    public func integers(_ name: String) -> [Int]? { array(name, \.integer) }

    public func decimals(_ name: String) -> [Double]? { array(name, \.decimal) }

    public func bools(_ name: String) -> [Bool]? { array(name, \.bool) }

    public func dates(_ name: String) -> [Date]? { array(name, \.date) }

    private func array<T>(_ name: String, _ element: (JSONValue) -> T?) -> [T]? {
        guard case .array(let items)? = values[name] else { return nil }
        var result: [T] = []
        result.reserveCapacity(items.count)
        for item in items {
            guard let value = element(item) else { return nil }
            result.append(value)
        }
        return result
    }
}
