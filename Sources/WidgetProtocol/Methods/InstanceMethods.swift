import WidgetCore

// Placed instances: adding, removing, configuring, listing, and what hosts show.

extension Methods {
    /// The methods of placed instances.
    static let instances: [any MethodSpec.Type] = [Add.self, Remove.self, Configure.self, List.self, Visible.self]

    public enum Add: MethodSpec {
        public typealias Params = AddParams
        public typealias Result = AddResult
        public static let name = "add"
        public static let access = MethodAccess.manage
        public static let summary = "Places an instance of a kind; its first load is exempt from the budget and due at once."
        public static var example: AddParams {
            AddParams(kind: "com.example.weather", family: "systemSmall", configuration: ["city": .string("Paris")], stack: "home")
        }
    }

    public enum Remove: MethodSpec {
        public typealias Params = InstanceParams
        public typealias Result = RemoveResult
        public static let name = "remove"
        public static let access = MethodAccess.manage
        public static let summary = "Removes an instance."
        public static var example: InstanceParams { InstanceParams(id: "i-1") }
    }

    public enum Configure: MethodSpec {
        public typealias Params = ConfigureParams
        public typealias Result = InstanceInfo
        public static let name = "configure"
        public static let access = MethodAccess.manage
        public static let summary = "Changes an instance's configuration; the reload that follows is exempt from the budget."
        public static var example: ConfigureParams { ConfigureParams(id: "i-1", configuration: ["city": .string("Oslo")], replace: false) }
    }

    public enum List: MethodSpec {
        public typealias Params = EmptyParams
        public typealias Result = [InstanceInfo]
        public static let name = "list"
        public static let access = MethodAccess.open
        public static let summary = "The instances, in placement order, each with its current entry."
    }

    public enum Visible: MethodSpec {
        public typealias Params = VisibleParams
        public typealias Result = VisibleResult
        public static let name = "visible"
        public static let access = MethodAccess.manage
        public static let summary = "A host reports the instances it shows now, replacing its previous report."
        public static var example: VisibleParams { VisibleParams(instances: ["i-1"]) }
    }
}
