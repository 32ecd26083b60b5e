import Foundation

/// The parts of a process's resident memory, from /proc/PID/status: what is mapped from files
/// (program text and data, shared libraries) against what it allocated.
struct MemoryDetail {
    var fields: [(String, Int)] = []

    init(pid: pid_t) {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return }
        for name in ["RssFile", "RssAnon", "Threads"] {
            for line in status.split(separator: "\n") where line.hasPrefix(name + ":") {
                let value = line.dropFirst(name.count + 1).split(whereSeparator: { $0 == " " || $0 == "\t" }).first.flatMap { Int($0) }
                if let value { fields.append((name, value)) }
            }
        }
    }

    var text: String {
        fields.map { $0.0 == "Threads" ? "\($0.1) threads" : "\($0.0) \($0.1) kB" }.joined(separator: ", ")
    }
}
