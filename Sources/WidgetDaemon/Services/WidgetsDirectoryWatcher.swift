import Foundation
import Glibc

/// Tells the engine when descriptor files in the widgets directories change, so a new kind
/// is usable without a SIGHUP: files created, written, renamed in (editors, `mv`), deleted or
/// moved away, and a directory that appears later. A thread blocks in read(2) on an inotify
/// descriptor: nothing wakes the daemon while nothing changes.
enum WidgetsDirectoryWatcher {
    /// After the first change of a burst (an editor's save, a package installing several
    /// files), events are gathered this long, then the directories are read once.
    static let settleDelay: Int32 = 200

    /// Starts the thread, which calls `changed` once per burst; false when inotify is not
    /// available (changes are then read on `widgets reload` or SIGHUP only).
    @discardableResult
    static func start(directories: [String], _ changed: @escaping @Sendable () -> Void) -> Bool {
        let fd = inotify_init1(Int32(IN_CLOEXEC))
        guard fd >= 0 else { return false }
        var armed = WidgetsDirectoryWatches(fd: fd, directories: directories)
        _ = armed.arm()
        guard !armed.roles.isEmpty else {
            close(fd)
            return false
        }
        Thread.detachNewThread { [armed] in
            var watches = armed
            Thread.current.name = "widgetd-widgets"
            let size = 64 * 1024
            let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 8)
            while true {
                guard let first = readEvents(fd, buffer, size, &watches) else { return }
                guard first else { continue }
                // One-shot: gather what the burst still brings, then read once.
                let deadline = monotonicMilliseconds() + Int64(settleDelay)
                var remaining = settleDelay
                while remaining > 0 {
                    var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                    if poll(&poller, 1, remaining) > 0 {
                        guard readEvents(fd, buffer, size, &watches) != nil else { return }
                    }
                    remaining = Int32(clamping: max(0, deadline - monotonicMilliseconds()))
                }
                changed()
            }
        }
        return true
    }

    /// Reads one batch of events; true when one of them may change the descriptors, nil when
    /// the descriptor is unusable.
    private static func readEvents(
        _ fd: CInt, _ buffer: UnsafeMutableRawPointer, _ size: Int, _ watches: inout WidgetsDirectoryWatches
    ) -> Bool? {
        var count = read(fd, buffer, size)
        while count < 0 && errno == EINTR { count = read(fd, buffer, size) }
        guard count > 0 else { return nil }
        var relevant = false
        var rearm = false
        for event in InotifyEvent.parse(buffer, count: count) {
            let assessed = watches.assess(event)
            relevant = relevant || assessed.relevant
            rearm = rearm || assessed.rearm
        }
        if rearm, watches.arm() { relevant = true }
        return relevant
    }

    private static func monotonicMilliseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
    }
}
