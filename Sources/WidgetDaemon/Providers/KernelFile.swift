import Glibc

/// The small files the kernel serves (`/proc`, cgroup files): they report a size of 0, so
/// they are read until the end.
enum KernelFile {
    static func read(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var text: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = Glibc.read(fd, &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            text += buffer[0..<count]
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// Whether a cgroup's `memory.events`, open as `events`, counts an OOM kill (nil: not
    /// known, the group is gone already).
    static func oomKilled(events: CInt) -> Bool? {
        guard events >= 0 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 512)
        let count = pread(events, &buffer, buffer.count, 0)
        guard count > 0 else { return nil }
        for line in String(decoding: buffer[0..<count], as: UTF8.self).split(separator: "\n") {
            let fields = line.split(separator: " ")
            if fields.count == 2, fields[0] == "oom_kill" { return (Int(fields[1]) ?? 0) > 0 }
        }
        return nil
    }
}
