import Foundation

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

/// What /proc says about the daemon: its descriptors, peak memory, CPU time and children.
enum FaultProcessStats {
    static func openDescriptors(_ pid: pid_t) -> Int {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []).count
    }

    /// Each open descriptor and what it points to (`pipe:[123]`, a path, ...).
    static func descriptorTargets(_ pid: pid_t) -> [String: String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []
        return Dictionary(uniqueKeysWithValues: names.map { name in
            (name, (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\(name)")) ?? "?")
        })
    }

    /// VmHWM (peak resident set) in KiB.
    static func peakMemory(_ pid: pid_t) -> Int {
        let text = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        let line = text.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }

    /// The fields of /proc/PID/stat after the command name: state, ppid, ... (field 3 onwards).
    private static func stat(_ pid: pid_t) -> [Substring] {
        let text = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
        return text.split(separator: ")").last?.split(separator: " ") ?? []
    }

    /// User plus system CPU time, in seconds.
    static func cpuSeconds(_ pid: pid_t) -> Double {
        let fields = stat(pid)
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// Processes whose parent is `pid`, with their state letter (Z: a zombie nobody reaped).
    static func children(of pid: pid_t) -> [(pid: pid_t, state: Substring)] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { name -> (pid_t, Substring)? in
            guard let child = pid_t(name) else { return nil }
            let fields = stat(child)
            guard fields.count > 1, pid_t(fields[1]) == pid else { return nil }
            return (child, fields[0])
        }
    }

    /// True when `pid` no longer runs (gone, or a zombie).
    static func isGone(_ pid: pid_t) -> Bool {
        if kill(pid, 0) != 0 { return true }
        return stat(pid).first == "Z"
    }
}
