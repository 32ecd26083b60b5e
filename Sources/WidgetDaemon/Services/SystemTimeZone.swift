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
