import Foundation
import Logging
import Testing
@testable import WidgetDaemon

/// A launch in a group of a delegated subtree, on the kernel's real unified hierarchy: the
/// provider is inside before its program runs, a `setsid` grandchild it leaves dies at the
/// launch's end, and the group is removed. The subtree is a group made for the test (the
/// test process itself stays where it is); it needs root and a writable cgroup2 mount.
@Suite(.serialized) struct DelegatedCgroupTests {
    /// A fresh group for the test in the unified hierarchy, or why there is none.
    static func makeService() throws -> String {
        guard getuid() == 0 else { throw Unavailable("the test makes cgroups: run it as root") }
        let mounts = try String(contentsOfFile: "/proc/self/mountinfo", encoding: .utf8)
        guard let mount = mounts.split(separator: "\n").map({ $0.split(separator: " ") })
            .first(where: { fields in fields.firstIndex(of: "-").map { $0 + 1 < fields.count && fields[$0 + 1] == "cgroup2" } ?? false })
        else { throw Unavailable("no cgroup2 mount in /proc/self/mountinfo") }
        let service = "\(mount[4])/widgetd-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        guard mkdir(service, 0o755) == 0 else {
            throw Unavailable("mkdir \(service): \(String(cString: strerror(errno)))")
        }
        return service
    }

    struct Unavailable: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// The launch's group and its end, as the runner uses them, without the runner's sweep:
    /// in a test process the sweep would take other tests' children for a launch's orphans.
    @Test func aSetsidGrandchildEndsWithItsLaunchAndTheGroupIsRemoved() async throws {
        let service = try Self.makeService()
        defer { rmdir(service) }
        let cgroups = DelegatedCgroups(service: service, plan: LaunchCgroupPlan(controllers: []), logger: Logger(label: "test"))
        let group = try #require(cgroups.makeGroup(memoryMax: 0, cpuQuota: 0), "no launch group made under \(service)")
        // Answers with the pid of a process it leaves in a session of its own, and the group
        // it ran in itself. It waits for the grandchild to be `sleep`, past its `setsid()`:
        // still in the provider's process group, it would die with it when the provider exits
        // (the exchange's end kills that group), not at the launch's end this test is about.
        let script = """
            cat >/dev/null
            setsid sleep 300 </dev/null >/dev/null 2>&1 &
            left=$!
            while [ "$(cat /proc/$left/comm 2>/dev/null)" != sleep ]; do sleep 0.01; done
            echo $left
            sed -n 's/^0:://p' /proc/self/cgroup
            """
        let child = try SpawnedChild.spawn(argv: ["/bin/sh", "-c", script], cgroup: group.procs)
        let exchange = child.exchange(input: Data(), maxOutput: 4096, deadline: .now + .seconds(10))
        _ = child.wait(until: nil)
        guard case .finished(let answer, _) = exchange else {
            group.end()
            cgroups.remove(group, until: .now + .seconds(2))
            Issue.record("the provider gave no answer: \(exchange)")
            return
        }
        let lines = String(decoding: answer, as: UTF8.self).split(separator: "\n").map(String.init)
        let left = lines.first.flatMap { pid_t($0) }
        // What /proc/self/cgroup shows: the path inside the hierarchy, ending with both names.
        let serviceName = service.split(separator: "/").last.map(String.init) ?? ""
        let groupName = group.path.split(separator: "/").last.map(String.init) ?? ""
        let ranIn = lines.dropFirst().first ?? "?"
        #expect(lines.count == 2 && ranIn.hasSuffix("/\(serviceName)/\(groupName)"), "the provider ran in \(ranIn), not in its launch's group \(group.path)")
        #expect(left.map(Self.alive) == true, "the setsid grandchild did not outlive its parent: \(lines)")

        // The launch's end: the group killed, then removed.
        group.end()
        cgroups.remove(group, until: .now + .seconds(2))
        let pid = try #require(left, "no pid in the provider's answer \(lines)")
        // Its parent is init (not a subreaper here), which reaps it.
        let deadline = ContinuousClock.now + .seconds(10)
        while Self.alive(pid) {
            try #require(ContinuousClock.now < deadline, "the setsid grandchild \(pid) still runs 10 s after its launch ended")
            try await Task.sleep(for: .milliseconds(5))
        }
        #expect(access(group.path, F_OK) != 0, "the launch's group \(group.path) was not removed")
    }

    @Test func aProviderThatCannotStartLeavesNoGroup() async throws {
        let service = try Self.makeService()
        defer { rmdir(service) }
        let cgroups = DelegatedCgroups(service: service, plan: LaunchCgroupPlan(controllers: []), logger: Logger(label: "test"))
        let runner = ExecProviderRunner(maxConcurrent: 1, scopes: nil, cgroups: cgroups)
        await #expect(throws: ProviderFailure.self) {
            _ = try await runner.run(ProviderInvocation(
                exec: ["/nonexistent/provider"], verb: "timeline", request: Data(), timeout: 10, maxAnswerBytes: 4096, owner: nil))
        }
        let left = try FileManager.default.contentsOfDirectory(atPath: service).filter(LaunchCgroupPlan.isLaunchName)
        #expect(left.isEmpty, "groups left under \(service): \(left)")
    }

    /// Whether `pid` runs (a zombie has ended: only its parent's wait is missing).
    static func alive(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return false }
        return stat[stat.index(close, offsetBy: 2)] != "Z"
    }
}
