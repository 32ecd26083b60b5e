import CSystemd
import Foundation
import Glibc
import Synchronization

/// The thread a bus connection lives on, and the way other threads hand it work: a list of
/// items and an eventfd that the thread sleeps on beside its connection (`BusPoll`). Shared by
/// `DBusEndpoint` and the session's watchers, each with the work of its own.
final class BusThread<Work: Sendable>: Sendable {
    /// Written by `post`; the thread waits on it in `BusPoll.wait`.
    let wakeFD: Int32
    private let work = Mutex<[Work]>([])
    private let finished = DispatchSemaphore(value: 0)

    init() throws(BusThreadError) {
        wakeFD = eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK))
        guard wakeFD >= 0 else { throw BusThreadError("eventfd: \(String(cString: strerror(errno)))") }
    }

    deinit {
        close(wakeFD)
    }

    /// Starts the thread named `name` running `body`.
    func start(name: String, _ body: @escaping @Sendable () -> Void) {
        let thread = Thread { [finished] in
            body()
            finished.signal()
        }
        thread.name = name
        thread.start()
    }

    /// Hands the thread an item, from any thread.
    func post(_ item: Work) {
        work.withLock { $0.append(item) }
        var one: UInt64 = 1
        _ = write(wakeFD, &one, MemoryLayout<UInt64>.size)
    }

    /// What was posted since the last call, oldest first; on the thread.
    func take() -> [Work] {
        work.withLock { items in
            defer { items.removeAll() }
            return items
        }
    }

    /// Waits for the thread's body to return. Blocks: never call it on the event loop.
    func join() {
        finished.wait()
    }
}
