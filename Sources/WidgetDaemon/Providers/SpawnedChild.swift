import CSystemd
import Glibc
import Foundation

/// A child process with pipes on stdin, stdout and stderr, in a process group of its own,
/// under the launch's resource limits.
struct SpawnedChild {
    let pid: pid_t
    let stdin: CInt
    let stdout: CInt
    let stderr: CInt

    enum Exchange {
        case finished(output: Data, errorOutput: Data)
        case timedOut
        case outputTooLarge
    }

    enum Status {
        case exited(Int32)
        case signaled(Int32)
    }

    /// What a launch may use: RLIMIT_DATA and RLIMIT_CPU, set in the child before its program
    /// runs (0: no limit).
    struct Limits: Sendable, Equatable {
        var memoryMax: Int
        var cpuSeconds: Int
    }

    /// `cgroup`: the `cgroup.procs` of the group the child enters before its program runs
    /// (-1: it stays in the daemon's).
    static func spawn(
        argv: [String], limits: Limits = Limits(memoryMax: 0, cpuSeconds: 0), cgroup: CInt = -1
    ) throws(ProviderFailure) -> SpawnedChild {
        var input: [CInt] = [-1, -1]
        var output: [CInt] = [-1, -1]
        var errors: [CInt] = [-1, -1]
        guard makePipe(&input), makePipe(&output), makePipe(&errors) else {
            let reason = String(cString: strerror(errno))
            for fd in input + output + errors where fd >= 0 { close(fd) }
            throw .spawnFailed("pipe: \(reason)")
        }
        // Not everything the daemon opens is close-on-exec (NIO's sockets and epoll are not);
        // a provider that outlives the daemon must not keep its socket alive. Its own process
        // group (so a kill reaches grandchildren); default signal handling and an empty mask,
        // because the daemon ignores SIGPIPE and exec keeps ignored signals.
        var cArguments = argv.map { strdup($0) } + [nil]
        defer { cArguments.forEach { free($0) } }
        var pid: pid_t = 0
        let fds: [CInt] = [input[0], output[1], errors[1]]
        let result = widgetd_spawn_limited(
            &pid, argv[0], argv[0].utf8.contains(UInt8(ascii: "/")) ? 0 : 1, &cArguments, fds,
            UInt64(limits.memoryMax), UInt64(limits.cpuSeconds), cgroup)
        close(input[0])
        close(output[1])
        close(errors[1])
        guard result == 0 else {
            close(input[1])
            close(output[0])
            close(errors[0])
            throw .spawnFailed("\(argv[0]): \(String(cString: strerror(result)))")
        }
        for fd in [input[1], output[0], errors[0]] {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        }
        return SpawnedChild(pid: pid, stdin: input[1], stdout: output[0], stderr: errors[0])
    }

    /// A close-on-exec pipe. (`pipe2` would do it atomically but is hidden behind _GNU_SOURCE;
    /// the short window does not matter because every child closes descriptors from 3 up.)
    private static func makePipe(_ fds: inout [CInt]) -> Bool {
        guard pipe(&fds) == 0 else { return false }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        return true
    }

    /// The tail of a provider's stderr kept for its failure's reason.
    static let errorTailBytes = 4096
    /// The most an unprivileged process can make a pipe hold (`/proc/sys/fs/pipe-max-size`).
    static let pipeMaxBytes = 1 << 20

    /// Writes `input`, reads stdout and stderr until both close or the provider exits, within
    /// `deadline`. Reads at most one byte more than `maxOutput` of stdout (that byte makes it
    /// too large, and the launch stops there), and keeps the last 4 KiB of stderr in a buffer
    /// of that size, so neither grows the daemon with what the provider writes.
    ///
    /// The answer is complete when the provider exits: a child it left running with the pipes
    /// open (`helper &` in a shell script) would otherwise hold the launch open until the
    /// time-out and lose the answer. So at the provider's exit its process group is killed and
    /// what the pipes already hold is read.
    func exchange(input: Data, maxOutput: Int, deadline: ContinuousClock.Instant) -> Exchange {
        var inputFD: CInt = stdin
        var outputFD: CInt = stdout
        var errorFD: CInt = stderr
        // -1 on a kernel without pidfd (before 5.3): then the pipes' end is the only signal.
        let exitFD = widgetd_pidfd_open(pid)
        defer {
            for fd in [inputFD, outputFD, errorFD, exitFD] where fd >= 0 { close(fd) }
        }
        let bytes = [UInt8](input)
        var written = 0
        if bytes.isEmpty {
            close(inputFD)
            inputFD = -1
        }
        var output = Data()
        var errors = TailBuffer(capacity: Self.errorTailBytes)
        var buffer = [UInt8](repeating: 0, count: 65536)
        while outputFD >= 0 || errorFD >= 0 {
            let remaining = deadline - ContinuousClock.now
            guard remaining > .zero else { return .timedOut }
            let milliseconds = remaining.components.seconds * 1000 + remaining.components.attoseconds / 1_000_000_000_000_000
            var fds: [pollfd] = []
            if inputFD >= 0 { fds.append(pollfd(fd: inputFD, events: Int16(POLLOUT), revents: 0)) }
            if outputFD >= 0 { fds.append(pollfd(fd: outputFD, events: Int16(POLLIN), revents: 0)) }
            if errorFD >= 0 { fds.append(pollfd(fd: errorFD, events: Int16(POLLIN), revents: 0)) }
            // Last, so output that arrives together with the exit is read first.
            if exitFD >= 0 { fds.append(pollfd(fd: exitFD, events: Int16(POLLIN), revents: 0)) }
            let ready = poll(&fds, nfds_t(fds.count), CInt(min(max(milliseconds, 1), 60_000)))
            if ready < 0 {
                if errno == EINTR { continue }
                return .timedOut
            }
            for entry in fds where entry.revents != 0 {
                if entry.fd == inputFD {
                    let count = bytes[written...].withUnsafeBytes { write(inputFD, $0.baseAddress, $0.count) }
                    if count > 0 { written += count }
                    // Done, or the provider closed its stdin without reading (EPIPE): fine either way.
                    if written >= bytes.count || (count < 0 && errno != EAGAIN && errno != EINTR) {
                        close(inputFD)
                        inputFD = -1
                    }
                } else if entry.fd == outputFD {
                    let count = Self.readBounded(outputFD, into: &buffer, upTo: maxOutput + 1 - output.count)
                    if count > 0 {
                        output.append(contentsOf: buffer[0..<count])
                        if output.count > maxOutput { return .outputTooLarge }
                    } else if count == 0 || (errno != EAGAIN && errno != EINTR) {
                        close(outputFD)
                        outputFD = -1
                    }
                } else if entry.fd == exitFD {
                    // Still a zombie (not reaped), so the group id cannot have been reused.
                    kill(-pid, SIGKILL)
                    return drain(outputFD, errorFD, output: output, errors: errors, maxOutput: maxOutput)
                } else if entry.fd == errorFD {
                    let count = read(errorFD, &buffer, buffer.count)
                    if count > 0 {
                        buffer.withUnsafeBytes { errors.append(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
                    } else if count == 0 || (errno != EAGAIN && errno != EINTR) {
                        close(errorFD)
                        errorFD = -1
                    }
                }
            }
        }
        return .finished(output: output, errorOutput: Data(errors.bytes))
    }

    /// Reads at most `limit` bytes (and at most the buffer's size).
    private static func readBounded(_ fd: CInt, into buffer: inout [UInt8], upTo limit: Int) -> Int {
        buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, min($0.count, max(1, limit))) }
    }

    /// What the pipes hold once the provider has exited: everything it wrote, because a write
    /// into a full pipe would have blocked it. Reads until empty, not until the end, which a
    /// process that escaped the group (`setsid`) could hold off for good.
    private func drain(_ outputFD: CInt, _ errorFD: CInt, output: Data, errors: TailBuffer, maxOutput: Int) -> Exchange {
        var output = output
        var errors = errors
        var buffer = [UInt8](repeating: 0, count: 65536)
        while outputFD >= 0 {
            let count = Self.readBounded(outputFD, into: &buffer, upTo: maxOutput + 1 - output.count)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            output.append(contentsOf: buffer[0..<count])
            if output.count > maxOutput { return .outputTooLarge }
        }
        // At most what a pipe can hold: a process that escaped the group could otherwise keep
        // stderr from ever being empty.
        var drained = 0
        while errorFD >= 0 && drained < Self.pipeMaxBytes {
            let count = read(errorFD, &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            drained += count
            buffer.withUnsafeBytes { errors.append(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
        }
        return .finished(output: output, errorOutput: Data(errors.bytes))
    }

    /// Reaps the child, first killing whatever it left in its process group. With a deadline,
    /// gives up (nil) when it passes. The group is killed while the exited child is still a
    /// zombie, so its pid (the group id) cannot have been reused by an unrelated process.
    ///
    /// The pipes reach their end while the provider is still exiting, a moment before it can
    /// be reaped, so the wait with a deadline sleeps on a pidfd until the exit: polling put
    /// its sleep on most launches.
    func wait(until deadline: ContinuousClock.Instant?) -> Status? {
        var info = siginfo_t()
        // Opened once the child turns out not to have exited yet; -1 without pidfd (before
        // Linux 5.3), and then the wait polls.
        var exitFD: CInt?
        defer { if let exitFD, exitFD >= 0 { close(exitFD) } }
        while true {
            let result = waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT | (deadline == nil ? 0 : WNOHANG))
            if result == 0 && info._sifields._sigchld.si_pid == pid { break }
            if result < 0 && errno != EINTR { break }
            if let deadline {
                let remaining = deadline - ContinuousClock.now
                if remaining <= .zero { return nil }
                if exitFD == nil { exitFD = widgetd_pidfd_open(pid) }
                if let exitFD, exitFD >= 0 {
                    let milliseconds = remaining.components.seconds * 1000 + remaining.components.attoseconds / 1_000_000_000_000_000
                    var exited = pollfd(fd: exitFD, events: Int16(POLLIN), revents: 0)
                    _ = poll(&exited, 1, CInt(min(max(milliseconds, 1), 60_000)))
                } else {
                    usleep(2000)
                }
            }
        }
        kill(-pid, SIGKILL)
        var status: CInt = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let signal = status & 0x7f
        return signal == 0 ? .exited((status >> 8) & 0xff) : .signaled(signal)
    }
}
