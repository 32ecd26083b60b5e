import Foundation
import Glibc

/// Where the system time zone comes from, as Foundation reads it: `TZ` (or `TZFILE`) when
/// set, else the zone /etc/localtime links to.
enum SystemTimeZone {
    static let path = "/etc/localtime"

    /// Changes whenever the zone may have changed: the variables, the link's target, and the
    /// identity of the file it resolves to (a replaced file or link gets a new inode).
    static func identity() -> String {
        func variable(_ name: String) -> String { getenv(name).map { String(cString: $0) } ?? "-" }
        var target = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink(path, &target, Int(PATH_MAX))
        let link = length >= 0 ? String(decoding: target[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self) : "-"
        var info = stat()
        let file = stat(path, &info) == 0 ? "\(info.st_dev):\(info.st_ino):\(info.st_mtim.tv_sec):\(info.st_size)" : "-"
        return [variable("TZ"), variable("TZFILE"), link, file].joined(separator: "|")
    }

    /// The system zone read afresh: Foundation caches `TimeZone.current` until told to forget it.
    static func current() -> TimeZone {
        NSTimeZone.resetSystemTimeZone()
        return TimeZone.current
    }
}

/// Tells the engine when /etc/localtime is replaced or changed (`timedatectl
/// set-timezone` swaps the link with a rename), so local times are recomputed at once
/// rather than at the next wake-up. Watches /etc, since a rename replaces the link itself.
enum TimeZoneWatcher {
    /// Starts a thread that calls `changed` after each change; false when inotify is not available.
    @discardableResult
    static func start(_ changed: @escaping @Sendable () -> Void) -> Bool {
        let fd = inotify_init1(Int32(IN_CLOEXEC))
        guard fd >= 0 else { return false }
        let mask = UInt32(IN_CREATE | IN_MOVED_TO | IN_DELETE | IN_CLOSE_WRITE | IN_ATTRIB)
        guard inotify_add_watch(fd, "/etc", mask) >= 0 else {
            close(fd)
            return false
        }
        Thread.detachNewThread {
            Thread.current.name = "widgetd-zone"
            let size = 64 * 1024
            let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 8)
            while true {
                let count = read(fd, buffer, size)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { return }
                let relevant = InotifyEvent.parse(buffer, count: count).contains { $0.name == "localtime" }
                if relevant { changed() }
            }
        }
        return true
    }
}
