import WidgetCore

// The daemon itself: its version, its counts, its descriptors, its event stream.

extension Methods {
    /// The methods of the daemon itself.
    static let daemon: [any MethodSpec.Type] = [Ping.self, Status.self, Widgets.self, WidgetsReload.self, Subscribe.self]

    public enum Ping: MethodSpec {
        public typealias Params = EmptyParams
        public typealias Result = PingResult
        public static let name = "ping"
        public static let access = MethodAccess.open
        public static let summary = "The daemon's version and protocol version."
    }

    public enum Status: MethodSpec {
        public typealias Params = EmptyParams
        public typealias Result = StatusResult
        public static let name = "status"
        public static let access = MethodAccess.open
        public static let summary = "Version, clock, counts and the next wake-up."
    }

    public enum Widgets: MethodSpec {
        public typealias Params = EmptyParams
        public typealias Result = WidgetsResult
        public static let name = "widgets"
        public static let access = MethodAccess.open
        public static let summary = "The descriptors loaded, and the files skipped with why."
    }

    /// Reading the directories costs the daemon work: not for any caller to trigger at will.
    public enum WidgetsReload: MethodSpec {
        public typealias Params = EmptyParams
        public typealias Result = DescriptorChanges
        public static let name = "widgets.reload"
        public static let access = MethodAccess.manage
        public static let summary = "Reads the widgets directories again now, as the watcher and SIGHUP do; answers what changed."
    }

    public enum Subscribe: MethodSpec {
        public typealias Params = EmptyParams
        public typealias Result = SubscribeResult
        public static let name = "subscribe"
        public static let access = MethodAccess.open
        public static let summary = "Turns the connection into an event stream: after the answer, each event comes as a notification."
    }
}

/// `subscribe`'s answer; the events follow it on the connection.
public struct SubscribeResult: Codable, Sendable, Equatable {
    public var subscribed: Bool
    public init(subscribed: Bool) { self.subscribed = subscribed }
}
