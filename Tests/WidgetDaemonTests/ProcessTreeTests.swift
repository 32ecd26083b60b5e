import Foundation
import Testing
@testable import WidgetDaemon

/// Which processes a launch's end sweeps, over a made-up listing of the daemon's descendants.
@Suite struct ProcessTreeTests {
    static let daemon: pid_t = 100

    static func process(_ pid: pid_t, parent: pid_t, start: UInt64, zombie: Bool = false) -> TreeProcess {
        TreeProcess(pid: pid, parent: parent, start: start, zombie: zombie)
    }

    @Test func aRunningProvidersDescendantsAreSweptButNotTheProvider() {
        let tree = ProcessTree([
            Self.process(200, parent: Self.daemon, start: 10),
            Self.process(201, parent: 200, start: 11),
            Self.process(202, parent: 201, start: 12),
            Self.process(203, parent: 202, start: 13),
        ])
        let swept = tree.sweep(daemon: Self.daemon, ending: 200, live: [:], since: 0).map(\.pid)
        #expect(Set(swept) == [201, 202, 203])
    }

    @Test func orphansNoRunningLaunchCouldHaveLeftAreSweptWithTheirTrees() {
        // 300 and 310 were re-parented to the daemon (their parents exited); 400 is another
        // launch's provider, started after 300 and before 310.
        let tree = ProcessTree([
            Self.process(300, parent: Self.daemon, start: 20),
            Self.process(301, parent: 300, start: 21),
            Self.process(400, parent: Self.daemon, start: 25),
            Self.process(401, parent: 400, start: 26),
            Self.process(310, parent: Self.daemon, start: 30),
        ])
        let swept = tree.sweep(daemon: Self.daemon, ending: nil, live: [400: 25], since: 0).map(\.pid)
        // 310 may be 400's helper: left for the end of 400's launch.
        #expect(Set(swept) == [300, 301])
        let atTheEnd = tree.sweep(daemon: Self.daemon, ending: nil, live: [:], since: 0).map(\.pid)
        #expect(Set(atTheEnd) == [300, 301, 310, 400, 401])
    }

    @Test func anOrphanStartedInTheSameTickAsARunningLaunchIsLeftToIt() {
        let tree = ProcessTree([
            Self.process(400, parent: Self.daemon, start: 25),
            Self.process(310, parent: Self.daemon, start: 25),
        ])
        #expect(tree.sweep(daemon: Self.daemon, ending: nil, live: [400: 25], since: 0).isEmpty)
    }

    @Test func aChildFromBeforeTheFirstLaunchIsNotALaunchs() {
        // 150 was started by what exec'd widgetd; the first launch started at 20.
        let tree = ProcessTree([
            Self.process(150, parent: Self.daemon, start: 5),
            Self.process(151, parent: 150, start: 30),
            Self.process(300, parent: Self.daemon, start: 20),
        ])
        #expect(tree.sweep(daemon: Self.daemon, ending: nil, live: [:], since: 20).map(\.pid) == [300])
    }

    @Test func zombiesAreListedForReaping() {
        let tree = ProcessTree([Self.process(300, parent: Self.daemon, start: 20, zombie: true)])
        #expect(tree.sweep(daemon: Self.daemon, ending: nil, live: [:], since: 0) == [Self.process(300, parent: Self.daemon, start: 20, zombie: true)])
    }

    @Test func aLoopInTheListingEnds() {
        let tree = ProcessTree([
            Self.process(200, parent: Self.daemon, start: 10),
            Self.process(201, parent: 202, start: 11),
            Self.process(202, parent: 201, start: 12),
        ])
        #expect(tree.descendants(of: Self.daemon).map(\.pid) == [200])
    }

    @Test(arguments: [
        ("4242 (sleep) S 1 4242 4242 0 -1 4194560 100 0 0 0 0 0 0 0 20 0 1 0 987654 2203648 128 18446744073709551615",
         TreeProcess(pid: 4242, parent: 1, start: 987_654, zombie: false)),
        ("4243 (a) b) (c) Z 77 1 1 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 55 0 0 0",
         TreeProcess(pid: 4243, parent: 77, start: 55, zombie: true)),
    ])
    func statLinesParse(text: String, expected: TreeProcess) {
        #expect(ProcessTree.parseStat(pid: expected.pid, text) == expected)
    }

    @Test func theTestProcessSeesItsOwnChild() throws {
        let child = try SpawnedChild.spawn(argv: ["/bin/sh", "-c", "cat > /dev/null"])
        let tree = ProcessTree.read(daemon: getpid())
        #expect(tree.processes[child.pid]?.parent == getpid())
        _ = child.exchange(input: Data(), maxOutput: 16, deadline: .now + .seconds(60))
        _ = child.wait(until: nil)
    }
}

/// The limits are set in the child before its program runs.
@Suite struct SpawnLimitTests {
    static func run(_ script: String, limits: SpawnedChild.Limits) throws -> (String, SpawnedChild.Status?) {
        let child = try SpawnedChild.spawn(argv: ["/bin/sh", "-c", script], limits: limits)
        let exchange = child.exchange(input: Data(), maxOutput: 4096, deadline: .now + .seconds(60))
        let status = child.wait(until: nil)
        guard case .finished(let output, _) = exchange else { return ("", status) }
        return (String(decoding: output, as: UTF8.self), status)
    }

    @Test func theChildRunsUnderTheLimits() throws {
        let (output, _) = try Self.run("ulimit -d; ulimit -t; ulimit -H -t", limits: .init(memoryMax: 64 * 1024 * 1024, cpuSeconds: 7))
        #expect(output == "65536\n7\n8\n")
        let (unlimited, _) = try Self.run("ulimit -d", limits: .init(memoryMax: 0, cpuSeconds: 0))
        #expect(unlimited == "unlimited\n")
    }

    @Test func aMissingProgramIsASpawnFailure() {
        #expect(throws: ProviderFailure.spawnFailed("/nonexistent/provider: No such file or directory")) {
            try SpawnedChild.spawn(argv: ["/nonexistent/provider"], limits: .init(memoryMax: 0, cpuSeconds: 0))
        }
        #expect(throws: ProviderFailure.spawnFailed("no-such-provider-anywhere: No such file or directory")) {
            try SpawnedChild.spawn(argv: ["no-such-provider-anywhere"])
        }
    }

    @Test func aProgramOnPathIsFoundAndOneWithoutAnInterpreterLineIsNot() throws {
        let (output, status) = try {
            let child = try SpawnedChild.spawn(argv: ["echo", "found"])
            let exchange = child.exchange(input: Data(), maxOutput: 64, deadline: .now + .seconds(60))
            let status = child.wait(until: nil)
            guard case .finished(let output, _) = exchange else { return ("", status) }
            return (String(decoding: output, as: UTF8.self), status)
        }()
        #expect(output == "found\n")
        guard case .exited(0)? = status else {
            Issue.record("\(String(describing: status))")
            return
        }
        // As posix_spawnp: a file without "#!" is not handed to /bin/sh. (Checked on a full
        // path: the test does not change PATH under the suites running beside it.)
        let file = NSTemporaryDirectory() + "widgetd-spawn-\(getpid())"
        try "echo ran\n".write(toFile: file, atomically: true, encoding: .utf8)
        chmod(file, 0o755)
        defer { unlink(file) }
        #expect(throws: ProviderFailure.spawnFailed("\(file): Exec format error")) {
            try SpawnedChild.spawn(argv: [file])
        }
    }

    @Test func theChildHasDefaultSignalsAndOnlyItsPipes() throws {
        // SIGPIPE ignored in this process must be default in the child; descriptors 0-2 only.
        signal(SIGPIPE, SIG_IGN)
        let (output, _) = try Self.run("grep -E '^(SigIgn|SigBlk)' /proc/self/status; ls /proc/self/fd | wc -l", limits: .init(memoryMax: 0, cpuSeconds: 0))
        #expect(output.contains("SigIgn:\t0000000000000000"), "\(output)")
        #expect(output.contains("SigBlk:\t0000000000000000"), "\(output)")
        // 0, 1, 2 and the directory ls reads.
        #expect(output.hasSuffix("4\n"), "\(output)")
    }

    @Test func aFailureExplainedByALimitNamesIt() {
        let memory = ProviderFailure.exited(1, stderr: "Out of memory!\n").explained(memoryMax: 1024, cpuMax: 5)
        #expect(memory.description == "exited with status 1: Out of memory! (past memory-max = 1024 bytes)")
        #expect(memory.cause == "memory-max")
        let cpu = ProviderFailure.signaled(SIGXCPU, stderr: "").explained(memoryMax: 1024, cpuMax: 5)
        #expect(cpu.description == "killed by signal 24 (past cpu-max = 5 s of CPU)")
        let other = ProviderFailure.exited(3, stderr: "upstream unavailable").explained(memoryMax: 1024, cpuMax: 5)
        #expect(other == .exited(3, stderr: "upstream unavailable"))
    }
}
