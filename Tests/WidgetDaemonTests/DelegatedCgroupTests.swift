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

    @Test func aSetsidGrandchildEndsWithItsLaunchAndTheGroupIsRemoved() async throws {
        let service = try Self.makeService()
        defer { rmdir(service) }
        let cgroups = DelegatedCgroups(service: service, plan: LaunchCgroupPlan(controllers: []), logger: Logger(label: "test"))
        let runner = ExecProviderRunner(maxConcurrent: 1, scopes: nil, cgroups: cgroups)
        // Answers with the pid of a process it leaves in a session of its own, and the group
        // it ran in itself.
        let script = """
            cat >/dev/null
            setsid sleep 300 </dev/null >/dev/null 2>&1 &
            echo $!
            sed -n 's/^0:://p' /proc/self/cgroup
            """
        let answer = try await runner.run(ProviderInvocation(
            exec: ["/bin/sh", "-c", script], verb: "timeline", request: Data(), timeout: 10, maxAnswerBytes: 4096, owner: nil))
        let lines = String(decoding: answer, as: UTF8.self).split(separator: "\n").map(String.init)
        try #require(lines.count == 2, "the provider answered \(lines)")
        let left = try #require(pid_t(lines[0]), "no pid in the provider's answer \(lines)")
        #expect(lines[1].hasSuffix("/" + service.split(separator: "/").last! + "/launch-1"),
                "the provider ran in \(lines[1]), not in its launch's group under \(service)")
        // Killed at the launch's end; its parent is init (not a subreaper here), which reaps it.
        let deadline = ContinuousClock.now + .seconds(10)
        while Self.alive(left) {
            try #require(ContinuousClock.now < deadline, "the setsid grandchild \(left) still runs 10 s after its launch ended")
            try await Task.sleep(for: .milliseconds(5))
        }
        #expect(access(service + "/launch-1", F_OK) != 0, "the launch's group \(service)/launch-1 was not removed")
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
