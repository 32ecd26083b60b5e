/// Where a process's group is in the unified (v2) cgroup hierarchy, as a directory: under
/// `/sys/fs/cgroup` on a unified system, under `/sys/fs/cgroup/unified` on a hybrid one, where
/// the controllers may be v1 hierarchies but the unified one still tracks every process.
enum UnifiedCgroup {
    /// The directory of the group named by `cgroupFile` (the text of `/proc/PID/cgroup`) in the
    /// cgroup2 mount of `mountInfo` (the text of `/proc/self/mountinfo`); nil on a system with
    /// no unified hierarchy, or when the group lies outside every mount of it, or is its root
    /// (where no service runs).
    static func directory(cgroupFile: String, mountInfo: String) -> String? {
        guard let line = cgroupFile.split(separator: "\n").first(where: { $0.hasPrefix("0::") }) else { return nil }
        let group = String(line.dropFirst(3))
        guard group.hasPrefix("/"), group != "/" else { return nil }
        for mount in mountInfo.split(separator: "\n") {
            // ID PARENT MAJOR:MINOR ROOT MOUNT-POINT OPTIONS [OPTIONAL...] - TYPE SOURCE OPTIONS
            let fields = mount.split(separator: " ")
            guard let dash = fields.firstIndex(of: "-"), dash >= 5, dash + 1 < fields.count,
                  fields[dash + 1] == "cgroup2" else { continue }
            let root = String(fields[3])
            let point = String(fields[4])
            let inside: Substring
            if root == "/" {
                inside = Substring(group)
            } else if group == root {
                inside = ""
            } else if group.hasPrefix(root + "/") {
                inside = group.dropFirst(root.count)
            } else {
                continue
            }
            return (point == "/" ? "" : point) + inside
        }
        return nil
    }
}
