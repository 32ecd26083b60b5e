import Foundation
import Glibc

/// What /proc says about a process (the daemon): its descriptors, memory, CPU time and children.
enum ProcessStats {
    static func openDescriptors(_ pid: pid_t) -> Int {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []).count
    }

    /// Each open descriptor and what it points to (`pipe:[123]`, a path, ...).
    static func descriptorTargets(_ pid: pid_t) -> [String: String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []
        return Dictionary(uniqueKeysWithValues: names.map { name in
            (name, (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\(name)")) ?? "?")
        })
    }

    /// VmRSS and VmHWM (the peak resident set) of a process, in KiB.
    static func memory(_ pid: pid_t) throws -> (rss: Int, peak: Int) {
        let text = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        func field(_ name: String) -> Int {
            let line = text.split(separator: "\n").first { $0.hasPrefix(name + ":") } ?? ""
            return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
        }
        return (field("VmRSS"), field("VmHWM"))
    }

    /// VmHWM in KiB; 0 when the process is gone.
    static func peakMemory(_ pid: pid_t) -> Int {
        (try? memory(pid))?.peak ?? 0
    }

    /// The fields of /proc/PID/stat after the command name: state, ppid, ... (field 3 onwards).
    private static func stat(_ pid: pid_t) -> [Substring] {
        let text = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
        return text.split(separator: ")").last?.split(separator: " ") ?? []
    }

    /// User plus system CPU time, in seconds.
    static func cpuSeconds(_ pid: pid_t) -> Double {
        let fields = stat(pid)
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// Processes whose parent is `pid`, with their state letter (Z: a zombie nobody reaped).
    static func children(of pid: pid_t) -> [(pid: pid_t, state: Substring)] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { name -> (pid_t, Substring)? in
            guard let child = pid_t(name) else { return nil }
            let fields = stat(child)
            guard fields.count > 1, pid_t(fields[1]) == pid else { return nil }
            return (child, fields[0])
        }
    }

    /// True when `pid` no longer runs (gone, or a zombie).
    static func isGone(_ pid: pid_t) -> Bool {
        if kill(pid, 0) != 0 { return true }
        return stat(pid).first == "Z"
    }
}
