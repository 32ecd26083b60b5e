import CSystemd
import Glibc

/// How a bus thread sleeps: in ppoll on its connection (the events and time-out sd-bus asks
/// for) and on the eventfd through which other threads hand it work, so an idle thread is
/// not woken at all. Shared by `DBusEndpoint` and the session's watchers.
enum BusPoll {
    /// Blocks until the bus or `wakeFD` is ready, or until sd-bus's time-out or `deadline`
    /// (CLOCK_MONOTONIC nanoseconds, `.max` for none); empties the eventfd when it was written.
    static func wait(bus: OpaquePointer?, wakeFD: Int32, deadline otherDeadline: UInt64) {
        var fds = [pollfd(fd: wakeFD, events: Int16(POLLIN), revents: 0)]
        var deadline = otherDeadline
        if let bus {
            let fd = sd_bus_get_fd(bus)
            let events = sd_bus_get_events(bus)
            if fd >= 0 && events >= 0 { fds.append(pollfd(fd: fd, events: Int16(events), revents: 0)) }
            var microseconds: UInt64 = .max
            if sd_bus_get_timeout(bus, &microseconds) >= 0, microseconds != .max {
                let busDeadline = microseconds.multipliedReportingOverflow(by: 1000).overflow ? .max : microseconds * 1000
                deadline = min(deadline, busDeadline)
            }
        }
        var timeout: Int64 = -1
        if deadline != .max {
            let now = monotonicNanoseconds()
            timeout = deadline > now ? Int64(clamping: deadline - now) : 0
        }
        let ready = fds.withUnsafeMutableBufferPointer { widgetd_ppoll($0.baseAddress, UInt($0.count), timeout) }
        if ready > 0 && fds[0].revents != 0 {
            var count: UInt64 = 0
            _ = read(wakeFD, &count, MemoryLayout<UInt64>.size)
        }
    }

    static func monotonicNanoseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    }
}
