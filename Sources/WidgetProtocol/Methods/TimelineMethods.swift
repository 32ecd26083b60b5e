import WidgetCore

// Timelines and reloads: what apps (WidgetCenter) and providers' owners call most.

extension Methods {
    /// The methods of timelines and reloads.
    static let timelines: [any MethodSpec.Type] = [
        WidgetTimeline.self, Push.self, ReloadTimelines.self, ReloadAllTimelines.self, InvalidateRelevance.self, Perform.self, Schedule.self,
        Budget.self,
    ]

    public enum WidgetTimeline: MethodSpec {
        public typealias Params = InstanceParams
        public typealias Result = TimelineResult
        public static let name = "timeline"
        public static let access = MethodAccess.open
        public static let summary = "An instance's entries, current entry, policy and next reload."
        public static var example: InstanceParams { InstanceParams(id: "i-1") }
    }

    public enum Push: MethodSpec {
        public typealias Params = PushParams
        public typealias Result = PushResult
        public static let name = "push"
        public static let access = MethodAccess.kinds(.push)
        public static let summary = "Installs a timeline for an instance from outside (`widgetctl push`, an app)."
        public static var example: PushParams {
            PushParams(id: "i-1", timeline: WidgetCore.WidgetTimeline(entries: [], policy: .atEnd))
        }
        public static func subject(of params: PushParams) -> AccessSubject { .kinds([], instances: [params.id]) }
    }

    public enum ReloadTimelines: MethodSpec {
        public typealias Params = ReloadTimelinesParams
        public typealias Result = ReloadResult
        public static let name = "reloadTimelines"
        public static let access = MethodAccess.kinds(.reload)
        public static let summary = "WidgetCenter's `reloadTimelines(ofKind:)`, for kinds and for single instances."
        public static var example: ReloadTimelinesParams {
            ReloadTimelinesParams(kinds: ["com.example.weather"], instances: ["i-1"], userInitiated: false)
        }
        public static func subject(of params: ReloadTimelinesParams) -> AccessSubject {
            .kinds(params.kinds, instances: params.instances ?? [])
        }
    }

    public enum ReloadAllTimelines: MethodSpec {
        public typealias Params = ReloadAllParams
        public typealias Result = ReloadResult
        public static let name = "reloadAllTimelines"
        public static let access = MethodAccess.kinds(.reload)
        public static let summary = "WidgetCenter's `reloadAllTimelines()`; from a kind's owner, of the kinds it owns."
        public static var example: ReloadAllParams { ReloadAllParams(userInitiated: false) }
        public static func subject(of params: ReloadAllParams) -> AccessSubject { .callersKinds }
    }

    public enum InvalidateRelevance: MethodSpec {
        public typealias Params = InvalidateRelevanceParams
        public typealias Result = InvalidateRelevanceResult
        public static let name = "invalidateRelevance"
        public static let access = MethodAccess.kinds(.reload)
        public static let summary =
            "WidgetCenter's `invalidateRelevance(ofKind:)`: fresh relevance from the providers without new content, and the stacks ranked again."
        public static var example: InvalidateRelevanceParams { InvalidateRelevanceParams(kinds: ["com.example.weather"]) }
        public static func subject(of params: InvalidateRelevanceParams) -> AccessSubject { .kinds(params.kinds) }
    }

    public enum Perform: MethodSpec {
        public typealias Params = PerformParams
        public typealias Result = PerformResult
        public static let name = "perform"
        public static let access = MethodAccess.kinds(.reload)
        public static let summary =
            "Runs an action of the entry an instance shows (the provider's `perform` verb), then reloads the instance; it is invalidated meanwhile."
        public static var example: PerformParams { PerformParams(instance: "i-1", action: "done") }
        public static func subject(of params: PerformParams) -> AccessSubject { .kinds([], instances: [params.instance]) }
    }

    public enum Schedule: MethodSpec {
        public typealias Params = EmptyParams
        public typealias Result = [ScheduleItem]
        public static let name = "schedule"
        public static let access = MethodAccess.open
        public static let summary = "The pending reloads, earliest first."
    }

    public enum Budget: MethodSpec {
        public typealias Params = InstanceParams
        public typealias Result = BudgetResult
        public static let name = "budget"
        public static let access = MethodAccess.open
        public static let summary = "An instance's reloads in the last 24 hours, its limit and its next allowed reload."
        public static var example: InstanceParams { InstanceParams(id: "i-1") }
    }
}
