import Foundation
import Glibc

/// The daemon's descendants, by parent, and which of them a launch's end sweeps.
///
/// widgetd is a child subreaper, so a provider's descendant whose parent exits (a `setsid`
/// or double-forked child, once the provider is gone) becomes the daemon's own child. Every
/// child of the daemon is a provider it launched or such an orphan: nothing else is spawned.
struct ProcessTree: Sendable {
    var processes: [pid_t: TreeProcess] = [:]
    var children: [pid_t: [pid_t]] = [:]

    init(_ list: [TreeProcess]) {
        for process in list {
            processes[process.pid] = process
            children[process.parent, default: []].append(process.pid)
        }
    }

    /// `pid`'s descendants, parents before children.
    func descendants(of pid: pid_t) -> [TreeProcess] {
        var found: [TreeProcess] = []
        var seen: Set<pid_t> = [pid]
        var next = children[pid] ?? []
        while let child = next.popLast() {
            guard seen.insert(child).inserted, let process = processes[child] else { continue }
            found.append(process)
            next += children[child] ?? []
        }
        return found
    }

    /// What the end of the launch rooted at `ending` sweeps: the descendants of its provider
    /// (while the provider still runs, as at a time-out), and every orphan of the daemon that
    /// no launch still running could have left, with their descendants. An orphan that
    /// started after a running launch did may be that launch's (its helper whose parent
    /// exited), so it is left until the last such launch ends, whose sweep takes it. `live`
    /// holds the other launches' providers and their start times; they and their trees are
    /// never swept. The provider itself is not in the result: its launch reaps it. A child
    /// that started before the first launch (`since`) is not a launch's: one that whatever
    /// exec'd widgetd had started (`helper & exec widgetd`) is left alone.
    func sweep(daemon: pid_t, ending: pid_t?, live: [pid_t: UInt64], since: UInt64) -> [TreeProcess] {
        var targets: [TreeProcess] = []
        if let ending { targets += descendants(of: ending) }
        for pid in children[daemon] ?? [] where pid != ending && live[pid] == nil {
            guard let orphan = processes[pid], orphan.start >= since else { continue }
            if live.values.contains(where: { orphan.start >= $0 }) { continue }
            targets.append(orphan)
            targets += descendants(of: pid)
        }
        return targets
    }
}

extension ProcessTree {
    /// The daemon's descendants now, read through /proc/PID/task/TID/children (each thread's
    /// children), so only they are read, not every process of the machine.
    static func read(daemon: pid_t) -> ProcessTree {
        var list: [TreeProcess] = []
        var seen: Set<pid_t> = []
        var next = childPIDs(of: daemon)
        while let pid = next.popLast() {
            guard seen.insert(pid).inserted, let process = stat(pid) else { continue }
            list.append(process)
            next += childPIDs(of: pid)
        }
        return ProcessTree(list)
    }

    /// The children of every thread of `pid`.
    static func childPIDs(of pid: pid_t) -> [pid_t] {
        var result: [pid_t] = []
        guard let tasks = opendir("/proc/\(pid)/task") else { return [] }
        defer { closedir(tasks) }
        while let entry = readdir(tasks) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self) }
            guard let tid = Int32(name) else { continue }
            guard let text = KernelFile.read("/proc/\(pid)/task/\(tid)/children") else { continue }
            result += text.split(separator: " ").compactMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        }
        return result
    }

    /// A process's parent, start time and state from /proc/PID/stat, or nil once it is gone.
    static func stat(_ pid: pid_t) -> TreeProcess? {
        guard let text = KernelFile.read("/proc/\(pid)/stat") else { return nil }
        return parseStat(pid: pid, text)
    }

    /// Parses /proc/PID/stat. The command name (field 2) may hold spaces and parentheses, so
    /// the fields are counted after its last ')'.
    static func parseStat(pid: pid_t, _ text: String) -> TreeProcess? {
        guard let close = text.lastIndex(of: ")") else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        // fields[0] is field 3 (state), fields[1] field 4 (ppid), fields[19] field 22 (starttime).
        guard fields.count > 19, let parent = pid_t(fields[1]), let start = UInt64(fields[19]) else { return nil }
        return TreeProcess(pid: pid, parent: parent, start: start, zombie: fields[0] == "Z" || fields[0] == "X")
    }
}
