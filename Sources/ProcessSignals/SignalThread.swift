import CSignalPipe
import Foundation
import Glibc

/// Delivers a process's signals without libdispatch: a handler writes each to a pipe
/// (`widgetd_signal_pipe`), and one thread of their own reads the pipe and yields each to
/// its stream.
///
/// Why: swift-service-lifecycle traps signals with a DispatchSource, and the first one
/// starts libdispatch's manager thread and pool, whose monitor wakes an idle process every
/// second. A thread blocked in `read` never wakes until a signal comes.
public enum SignalThread {
    /// Catches `routes`' signals from now on and starts the thread that hands each to its
    /// stream. Once per process. Throws the errno when the pipe or a handler cannot be made.
    public static func start(name: String, routes: [CInt: AsyncStream<CInt>.Continuation]) throws {
        let signals = Array(routes.keys)
        let fd = widgetd_signal_pipe(signals, CInt(signals.count))
        guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EINVAL) }
        Thread.detachNewThread {
            Thread.current.name = name
            var byte: UInt8 = 0
            while true {
                let count = read(fd, &byte, 1)
                if count == 1 {
                    routes[CInt(byte)]?.yield(CInt(byte))
                } else if count < 0 && errno == EINTR {
                    continue
                } else {
                    return
                }
            }
        }
    }
}
