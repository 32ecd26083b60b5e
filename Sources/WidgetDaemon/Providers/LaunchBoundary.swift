/// What holds every process of one launch, wherever it moved in the process tree: a transient
/// scope (`LaunchScope`) or a group in the daemon's delegated cgroup subtree (`LaunchCgroup`).
protocol LaunchBoundary: AnyObject {
    /// Kills every process left inside.
    func end()
    /// Whether the kernel killed a process inside for going past its memory limit (nil: not
    /// known).
    var oomKilled: Bool? { get }
    /// How a failure names the memory limit the kernel held the launch to.
    var memoryLimitName: String { get }
}
