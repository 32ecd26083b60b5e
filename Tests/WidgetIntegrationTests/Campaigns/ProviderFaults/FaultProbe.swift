import Foundation
@testable import WidgetIntegrationSupport

/// Another client, measuring how long the daemon takes to answer while a fault happens:
/// by default `ping` and `status` in turn on one connection, every few milliseconds, on a
/// thread of its own. With other requests and no pause it is an app in a tight loop.
final class FaultLatencyProbe: @unchecked Sendable {
    private let lock = NSLock()
    private var samples: [Double] = []
    private var failures = 0
    private var stopping = false
    private let finished = DispatchSemaphore(value: 0)
    /// Used by the probe's thread only; dropped (closed) by `stop`.
    private var connection: RawConnection?

    static func pingOrStatus(_ id: Int) -> String {
        #"{"jsonrpc":"2.0","id":\#(id),"method":"\#(id % 2 == 0 ? "ping" : "status")"}"#
    }

    init(
        socket: String, pauseMicroseconds: UInt32 = 3000,
        request: @escaping @Sendable (Int) -> String = FaultLatencyProbe.pingOrStatus
    ) throws {
        connection = try RawConnection(path: socket)
        Thread.detachNewThread { [self] in
            var id = 0
            while !lock.withLock({ stopping }) {
                id += 1
                let start = ContinuousClock.now
                let answer = connection?.request(request(id))
                let elapsed = ContinuousClock.now - start
                let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
                lock.withLock {
                    if answer?["result"] != nil { samples.append(seconds) } else { failures += 1 }
                }
                if pauseMicroseconds > 0 { usleep(pauseMicroseconds) }
            }
            finished.signal()
        }
    }

    struct Figures: CustomStringConvertible {
        var count: Int
        var failures: Int
        var p50: Double
        var p99: Double
        var max: Double

        var description: String {
            func ms(_ seconds: Double) -> String { String(format: "%.1f ms", seconds * 1000) }
            return "\(count) requests, p50 \(ms(p50)), p99 \(ms(p99)), max \(ms(max))" + (failures > 0 ? ", \(failures) failed" : "")
        }
    }

    /// Stops the probe and returns what it measured.
    func stop() -> Figures {
        lock.withLock { stopping = true }
        finished.wait()
        connection = nil
        let sorted = lock.withLock { samples.sorted() }
        func percentile(_ p: Double) -> Double {
            sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
        }
        return Figures(
            count: sorted.count, failures: lock.withLock { failures }, p50: percentile(0.5), p99: percentile(0.99),
            max: sorted.last ?? 0)
    }
}
