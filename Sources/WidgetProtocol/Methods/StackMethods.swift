import Foundation
import WidgetCore

// Smart Stacks: the stacks, their ranking, their decisions, and a dry run of the hours ahead.

extension Methods {
    /// The methods of Smart Stacks.
    static let stacks: [any MethodSpec.Type] = [
        StackCreate.self, StackAdd.self, StackShow.self, StackList.self, StackSwipe.self, StackSmartRotate.self, StackRemove.self,
        Explain.self, Log.self, Simulate.self,
    ]

    public enum StackCreate: MethodSpec {
        public typealias Params = StackCreateParams
        public typealias Result = StackInfo
        public static let name = "stack.create"
        public static let access = MethodAccess.manage
        public static let summary = "Creates an empty stack."
        public static var example: StackCreateParams { StackCreateParams(name: "home", smartRotate: true) }
    }

    public enum StackAdd: MethodSpec {
        public typealias Params = StackAddParams
        public typealias Result = StackInfo
        public static let name = "stack.add"
        public static let access = MethodAccess.manage
        public static let summary = "Adds instances to the end of a stack."
        public static var example: StackAddParams { StackAddParams(name: "home", instances: ["i-1"]) }
    }

    public enum StackShow: MethodSpec {
        public typealias Params = StackNameParams
        public typealias Result = StackInfo
        public static let name = "stack.show"
        public static let access = MethodAccess.open
        public static let summary = "A stack; from a host, showing it counts as showing its top."
        public static var example: StackNameParams { StackNameParams(name: "home") }
    }

    public enum StackList: MethodSpec {
        public typealias Params = EmptyParams
        public typealias Result = [StackInfo]
        public static let name = "stack.list"
        public static let access = MethodAccess.open
        public static let summary = "Every stack, as `stack.show` has it."
    }

    public enum StackSwipe: MethodSpec {
        public typealias Params = StackSwipeParams
        public typealias Result = StackInfo
        public static let name = "stack.swipe"
        public static let access = MethodAccess.manage
        public static let summary = "The user picks the top: at once, and Smart Rotate holds off for the user hold."
        public static var example: StackSwipeParams { StackSwipeParams(name: "home", instance: "i-1") }
    }

    public enum StackSmartRotate: MethodSpec {
        public typealias Params = StackSmartRotateParams
        public typealias Result = StackInfo
        public static let name = "stack.smartRotate"
        public static let access = MethodAccess.manage
        public static let summary = "Turns a stack's Smart Rotate on or off."
        public static var example: StackSmartRotateParams { StackSmartRotateParams(name: "home", on: true) }
    }

    public enum StackRemove: MethodSpec {
        public typealias Params = StackNameParams
        public typealias Result = RemoveResult
        public static let name = "stack.remove"
        public static let access = MethodAccess.manage
        public static let summary = "Removes a stack; its instances stay."
        public static var example: StackNameParams { StackNameParams(name: "home") }
    }

    public enum Explain: MethodSpec {
        public typealias Params = StackNameParams
        public typealias Result = Explanation
        public static let name = "explain"
        public static let access = MethodAccess.open
        public static let summary = "A stack's ranking now, every component of every candidate."
        public static var example: StackNameParams { StackNameParams(name: "home") }
    }

    public enum Log: MethodSpec {
        public typealias Params = LogParams
        public typealias Result = [RotationDecision]
        public static let name = "log"
        public static let access = MethodAccess.open
        public static let summary = "Rotation decisions, oldest first."
        public static var example: LogParams {
            LogParams(stack: "home", since: Date(timeIntervalSince1970: 1_767_600_000), limit: 50)
        }
    }

    public enum Simulate: MethodSpec {
        public typealias Params = SimulateParams
        public typealias Result = SimulateResult
        public static let name = "simulate"
        public static let access = MethodAccess.open
        public static let summary =
            "A dry run of the coming hours on a copy of the state: rotations, entry changes, reloads (`runProviders` takes the right to reload every kind)."
        public static var example: SimulateParams { SimulateParams(hours: 24, limit: 1000, runProviders: false) }
    }
}
