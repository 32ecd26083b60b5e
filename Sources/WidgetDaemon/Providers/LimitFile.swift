/// A cgroup file a launch's group gets before its provider enters it (`LaunchCgroupPlan`).
struct LimitFile: Equatable, Sendable {
    let name: String
    let value: String
}
