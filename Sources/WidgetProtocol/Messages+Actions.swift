import Foundation
import WidgetCore

/// `perform`: a host taps one of the buttons of the entry an instance shows.
public struct PerformParams: Codable, Sendable, Equatable {
    public var instance: InstanceID
    /// The action's `id` in the entry.
    public var action: String
    public init(instance: InstanceID, action: String) {
        self.instance = instance
        self.action = action
    }
}

public struct PerformResult: Codable, Sendable, Equatable {
    public var instance: InstanceID
    public var action: String
    /// What the provider's `perform` answered (by convention `{}` or `{"dialog": TEXT}`).
    public var result: JSONValue
    /// `exempt`: the reload after it is exempt from the budget; `budgeted` beyond
    /// `action-reloads-per-minute`.
    public var reload: String

    public init(instance: InstanceID, action: String, result: JSONValue, reload: String) {
        self.instance = instance
        self.action = action
        self.result = result
        self.reload = reload
    }
}
