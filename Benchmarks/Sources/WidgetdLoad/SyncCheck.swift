import BenchSupport
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Not timed: does a write reach the disk before its answer? `strace -c` counts a server's
/// fsync/fdatasync calls while it answers `count` sequential writes; with every write
/// flushed before its reply there is at least one per write (nothing to group-commit with).
enum SyncCheck {
    /// A sentence for the notes. `send(i)` makes write `i` and returns after its answer.
    static func run(server: String, pid: pid_t, workDir: String, count: Int = 200, send: (Int) throws -> Void) -> String {
        guard let strace = LoadProcess.which("strace") else { return "\(server): not checked (strace is not installed)" }
        let output = workDir + "/strace-syncs-\(pid).txt"
        let devNull = open("/dev/null", O_RDWR | O_CLOEXEC)
        defer { close(devNull) }
        guard let tracer = try? LoadProcess.spawn(
            [strace, "-f", "-c", "-e", "trace=fsync,fdatasync,sync_file_range", "-o", output, "-p", "\(pid)"],
            stdin: devNull, stdout: devNull, stderr: devNull)
        else { return "\(server): not checked (strace did not start)" }
        // strace attaches to each thread in turn; writes sent before it is done would not count.
        Thread.sleep(forTimeInterval: 1)
        var sent = 0
        var failure: String?
        for index in 0..<count {
            do {
                try send(index)
                sent += 1
            } catch {
                failure = "\(error)"
                break
            }
        }
        Thread.sleep(forTimeInterval: 0.2)
        kill(tracer, SIGINT)
        if LoadProcess.wait(tracer, timeout: 10) == nil {
            kill(tracer, SIGKILL)
            _ = LoadProcess.wait(tracer, timeout: nil)
        }
        guard sent > 0, let text = try? String(contentsOfFile: output, encoding: .utf8) else {
            return "\(server): not checked (strace could not attach or no write was answered\(failure.map { ": \($0)" } ?? ""))"
        }
        var calls = 0
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard let name = fields.last, ["fsync", "fdatasync", "sync_file_range"].contains(String(name)), fields.count >= 5,
                  let number = Int(fields[3]) else { continue }
            calls += number
        }
        let perWrite = Double(calls) / Double(sent)
        var sentence = "\(server): \(calls) fsync/fdatasync calls for \(sent) sequential writes (strace -c), "
        sentence += String(format: "%.2f per write", perWrite)
        if perWrite < 0.9 { sentence += ": writes are NOT flushed before the answer, so this is not a durable figure" }
        return sentence
    }
}
