import Foundation
import Synchronization
@testable import WidgetIntegrationSupport

/// Pings the daemon on a connection of its own, one request after another, on a thread of its
/// own, until stopped: how long each answer took, so a test can say the daemon kept answering
/// while it was given hostile files.
final class FileModePinger: Sendable {
    private let latencies = Mutex<[Double]>([])
    private let failure = Mutex<String?>(nil)
    private let running = Atomic<Bool>(true)
    private let done = NSCondition()
    private let finished = Mutex(false)

    init(socket: String) throws {
        let client = try RPCClient(socket: socket)
        let box = UncheckedBox(client)
        Thread.detachNewThread { [self] in
            while running.load(ordering: .relaxed) {
                let start = ContinuousClock.now
                do {
                    try box.value.call("ping")
                } catch {
                    failure.withLock { $0 = "\(error)" }
                    break
                }
                let elapsed = ContinuousClock.now - start
                latencies.withLock { $0.append(Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000) }
                usleep(5_000)
            }
            done.lock()
            finished.withLock { $0 = true }
            done.broadcast()
            done.unlock()
        }
    }

    /// Stops the pings; the latencies in milliseconds, sorted, and the error that ended them early.
    func stop() -> (milliseconds: [Double], failure: String?) {
        running.store(false, ordering: .relaxed)
        done.lock()
        while !finished.withLock({ $0 }) { _ = done.wait(until: Date().addingTimeInterval(40)) }
        done.unlock()
        return (latencies.withLock { $0.sorted() }, failure.withLock { $0 })
    }

    /// "p50 0.4 ms, p99 2.1 ms, max 9.0 ms (812 pings)".
    static func summary(_ sorted: [Double]) -> String {
        guard !sorted.isEmpty else { return "no pings" }
        func at(_ q: Double) -> Double { sorted[min(sorted.count - 1, Int(Double(sorted.count) * q))] }
        return String(format: "p50 %.1f ms, p99 %.1f ms, max %.1f ms (%d pings)", at(0.5), at(0.99), sorted.last!, sorted.count)
    }
}

/// Hands the pinger's client to its one thread.
private final class UncheckedBox<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
