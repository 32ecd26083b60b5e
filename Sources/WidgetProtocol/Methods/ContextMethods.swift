import Foundation
import WidgetCore

// The session's context: what the sources and hosts reported, for clues and budgets.

extension Methods {
    /// The methods of the context.
    static let context: [any MethodSpec.Type] = [Context.self, ContextSet.self]

    public enum Context: MethodSpec {
        public typealias Params = EmptyParams
        public typealias Result = ContextInfo
        public static let name = "context"
        public static let access = MethodAccess.open
        public static let summary = "What widgetd knows of the session now: its sources, their values and the hosts' values."
    }

    public enum ContextSet: MethodSpec {
        public typealias Params = ContextSetParams
        public typealias Result = ContextInfo
        public static let name = "context.set"
        public static let access = MethodAccess.manage
        public static let summary = "Sets (or, with null, removes) values a host reports for `context` clues."
        public static var example: ContextSetParams { ContextSetParams(values: ["room": "kitchen", "mode": nil]) }
    }
}
