import BenchSupport
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What is read just before and just after a measured run: the server's CPU time, the whole
/// machine's busy time, and the load average, so that a run on a busy shared machine can be
/// recognised.
struct MachineSample {
    /// The server process's CPU seconds (user + system, every thread, ended ones included),
    /// from its process CPU clock (`clock_getcpuclockid`): the quantity /proc/PID/stat gives
    /// as utime + stime, in nanoseconds instead of 10 ms ticks, which matter when Redis
    /// spends well under a second on a run.
    var serverCPU: Double?
    /// The same from /proc/PID/stat, in ticks (a cross-check of `serverCPU`).
    var serverCPUFromStat: Double?
    /// CPU seconds the machine spent busy, all cores (user, nice, system, irq, softirq,
    /// steal), from /proc/stat.
    var machineBusy: Double?
    /// 1-minute load average.
    var loadAverage: Double?

    static func take(server pid: pid_t) -> MachineSample {
        MachineSample(
            serverCPU: processCPUSeconds(pid), serverCPUFromStat: LoadProcess.cpuSeconds(pid),
            machineBusy: machineBusySeconds(), loadAverage: oneMinuteLoad())
    }

    /// A process's CPU clock read from outside; nil when the kernel refuses (then
    /// /proc/PID/stat's ticks are used).
    static func processCPUSeconds(_ pid: pid_t) -> Double? {
        var clock = clockid_t()
        guard clock_getcpuclockid(pid, &clock) == 0 else { return nil }
        var ts = timespec()
        guard clock_gettime(clock, &ts) == 0 else { return nil }
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    static func machineBusySeconds() -> Double? {
        guard let text = try? String(contentsOfFile: "/proc/stat", encoding: .utf8),
              let line = text.split(separator: "\n").first, line.hasPrefix("cpu ") else { return nil }
        // user nice system idle iowait irq softirq steal (guest time is inside user already).
        let fields = line.split(separator: " ").dropFirst().compactMap { Double($0) }
        guard fields.count >= 8 else { return nil }
        let busy = fields[0] + fields[1] + fields[2] + fields[5] + fields[6] + fields[7]
        return busy / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    static func oneMinuteLoad() -> Double? {
        guard let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8) else { return nil }
        return text.split(separator: " ").first.flatMap { Double($0) }
    }
}

/// The difference of two optional readings.
func delta(_ before: Double?, _ after: Double?) -> Double? {
    guard let before, let after else { return nil }
    return after - before
}
