import Foundation
import WidgetCore

// The daemon's clock: read on either clock, moved only on the virtual one.

extension Methods {
    /// The methods of the clock.
    static let clock: [any MethodSpec.Type] = [Clock.self, ClockAdvance.self, ClockSet.self]

    public enum Clock: MethodSpec {
        public typealias Params = EmptyParams
        public typealias Result = ClockInfo
        public static let name = "clock"
        public static let access = MethodAccess.open
        public static let summary = "The clock's mode and now."
    }

    public enum ClockAdvance: MethodSpec {
        public typealias Params = ClockAdvanceParams
        public typealias Result = ClockInfo
        public static let name = "clock.advance"
        public static let access = MethodAccess.manage
        public static let summary = "Moves the virtual clock on by seconds, carrying out everything due on the way (asleep: nothing runs until the resume)."
        public static var example: ClockAdvanceParams { ClockAdvanceParams(seconds: 3600, asleep: false) }
    }

    public enum ClockSet: MethodSpec {
        public typealias Params = ClockSetParams
        public typealias Result = ClockInfo
        public static let name = "clock.set"
        public static let access = MethodAccess.manage
        public static let summary = "Moves the virtual clock to a date, carrying out everything due on the way."
        public static var example: ClockSetParams { ClockSetParams(date: Date(timeIntervalSince1970: 1_767_600_000)) }
    }
}
