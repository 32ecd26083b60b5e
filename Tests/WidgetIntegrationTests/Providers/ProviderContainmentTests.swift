import Foundation
import Testing
@testable import WidgetIntegrationSupport

extension Integration {
    /// Providers contained outside systemd: whatever a launch started ends with it,
    /// including a process that left its process group and session, and a launch's memory
    /// and CPU are bounded by `memory-max` and `cpu-max`.
    @Suite struct ProviderContainment {
        static let answer = #"{"entries":[{"date":"2026-01-05T08:00:00Z","content":"answered"}],"policy":"never"}"#

        /// Gone for good: no process has the pid, not even a zombie left for its reaper.
        static func isReaped(_ pid: pid_t) -> Bool {
            kill(pid, 0) != 0 && errno == ESRCH
        }

        static func pid(in path: String) throws -> pid_t {
            var text = ""
            _ = Poll.eventually { text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""; return !text.isEmpty }
            return try #require(pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)), "no pid in \(path)")
        }

        static func parent(of pid: pid_t) -> pid_t? {
            let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
            return stat.split(separator: ")").last?.split(separator: " ").dropFirst().first.flatMap { pid_t($0) }
        }

        static func zombies(of daemon: pid_t) -> [pid_t] {
            ProcessStats.children(of: daemon).filter { $0.state == "Z" }.map(\.pid)
        }

        static func lastError(_ fixture: DaemonFixture, _ id: String) -> String? {
            fixture.ctl("--json", "timeline", id).object["lastError"] as? String
        }

        /// A grandchild that leaves for a session of its own, whose parent exits at once
        /// (a double fork), and a child of its own: the provider answers and exits; after the
        /// launch both are gone and reaped, and the daemon holds no zombie.
        @Test func aSetsidGrandchildIsGoneAfterTheLaunch() throws {
            let fixture = try DaemonFixture()
            let escaped = fixture.directory + "/escaped"
            let below = fixture.directory + "/below"
            try fixture.provider("escape", """
                #!/bin/sh
                cat > /dev/null
                sh -c 'setsid sh -c "sleep 300 & echo \\$! > $2; exec sleep 300" </dev/null >/dev/null 2>&1 & echo $! > "$1"' - "\(escaped)" "\(below)"
                while [ ! -s "\(below)" ]; do sleep 0.01; done
                printf '%s' '\(Self.answer)'
                """)
            try fixture.descriptor("test.escape", exec: ["./escape"])
            try fixture.start()
            let daemon = try #require(fixture.pid)
            let start = ContinuousClock.now
            // On the virtual clock `add` returns once the first launch has been applied.
            let id = try fixture.add("test.escape")
            let grandchild = try Self.pid(in: escaped)
            let greatGrandchild = try Self.pid(in: below)
            #expect(Self.lastError(fixture, id) == nil)
            #expect(Poll.eventually { Self.isReaped(grandchild) && Self.isReaped(greatGrandchild) },
                    "the setsid grandchild \(grandchild) or its child \(greatGrandchild) outlived the launch")
            let gone = ContinuousClock.now - start
            #expect(Poll.eventually { Self.zombies(of: daemon).isEmpty }, "zombies of widgetd: \(Self.zombies(of: daemon))")
            print("setsid grandchild: gone and reaped \(gone) after the add began; zombies of widgetd: \(Self.zombies(of: daemon).count)")
            #expect(fixture.ctl("ping").status == 0)
        }

        /// A child widgetd did not launch (started by what exec'd it) is not a launch's: the
        /// sweeps after launches leave it alone.
        @Test func aChildFromBeforeWidgetdIsLeftAlone() throws {
            let fixture = try DaemonFixture()
            let before = fixture.directory + "/before"
            try fixture.provider("plain", """
                #!/bin/sh
                cat > /dev/null
                printf '%s' '\(Self.answer)'
                """)
            try fixture.descriptor("test.plain", exec: ["./plain"])
            try fixture.start(wrapper: ["/bin/sh", "-c", "sleep 300 </dev/null >/dev/null 2>&1 & echo $! > \"\(before)\"; exec \"$@\"", "sh"])
            let daemon = try #require(fixture.pid)
            let helper = try Self.pid(in: before)
            defer { kill(helper, SIGKILL) }
            #expect(Self.parent(of: helper) == daemon)
            let id = try fixture.add("test.plain")
            #expect(fixture.ctl("reload", "test.plain", "--user-initiated").status == 0)
            #expect(fixture.ctl("clock", "advance", "0s").status == 0)
            #expect(Self.lastError(fixture, id) == nil)
            #expect(kill(helper, 0) == 0 && !ProcessStats.isGone(helper), "the child from before widgetd was killed")
        }

        /// A provider that hangs after starting a `setsid` child: at its time-out the child
        /// goes with it.
        @Test func aSetsidChildOfAHangingProviderGoesAtTheTimeOut() throws {
            let fixture = try DaemonFixture()
            let escaped = fixture.directory + "/escaped"
            try fixture.provider("hang", """
                #!/bin/sh
                cat > /dev/null
                setsid sh -c 'echo $$ > "$1.tmp"; mv "$1.tmp" "$1"; exec sleep 300' - "\(escaped)" </dev/null >/dev/null 2>&1 &
                while [ ! -e "\(escaped)" ]; do sleep 0.01; done
                exec sleep 300
                """)
            try fixture.descriptor("test.hang", exec: ["./hang"], timeout: 2)
            try fixture.start()
            let daemon = try #require(fixture.pid)
            let id = try fixture.add("test.hang")
            let child = try Self.pid(in: escaped)
            #expect(Self.lastError(fixture, id)?.contains("timed out after 2 s and was killed") == true)
            #expect(Poll.eventually { Self.isReaped(child) }, "the setsid child \(child) outlived the time-out")
            #expect(Poll.eventually { ProcessStats.children(of: daemon).isEmpty }, "children of widgetd: \(ProcessStats.children(of: daemon))")
        }

        /// `memory-max` is the launch's RLIMIT_DATA: 600 MiB is refused under 256 MiB, the
        /// reload fails naming the key, and the daemon answers. 64 MiB fits.
        @Test func aProviderAllocatingPastMemoryMaxFailsItsReload() throws {
            let fixture = try DaemonFixture()
            let config = fixture.directory + "/widgetd.conf"
            try "[providers]\nmemory-max = 268435456\n".write(toFile: config, atomically: true, encoding: .utf8)
            try fixture.provider("hungry", """
                #!/bin/sh
                cat > /dev/null
                mib=$(cat "\(fixture.directory)/mib")
                perl -e '$x = "a" x ($ARGV[0] * 1024 * 1024)' "$mib" || exit
                printf '%s' '\(Self.answer)'
                """)
            try "64".write(toFile: fixture.directory + "/mib", atomically: true, encoding: .utf8)
            try fixture.descriptor("test.hungry", exec: ["./hungry"])
            try fixture.start(arguments: ["--config", config])
            let daemon = try #require(fixture.pid)
            let id = try fixture.add("test.hungry")
            #expect(Self.lastError(fixture, id) == nil, "64 MiB fits under memory-max")

            try "600".write(toFile: fixture.directory + "/mib", atomically: true, encoding: .utf8)
            let peakBefore = ProcessStats.peakMemory(daemon)
            #expect(fixture.ctl("reload", "test.hungry", "--user-initiated").status == 0)
            #expect(fixture.ctl("clock", "advance", "0s").status == 0)
            let error = Self.lastError(fixture, id)
            print("600 MiB under memory-max = 256 MiB: \(error ?? "no error"); widgetd VmHWM \(peakBefore) -> \(ProcessStats.peakMemory(daemon)) KiB")
            #expect(error?.contains("Out of memory!") == true, "\(error ?? "no error")")
            #expect(error?.contains("(past memory-max = 268435456 bytes)") == true, "\(error ?? "no error")")
            #expect(fixture.log().contains("memory-max"))
            let content = fixture.shownContent(id)
            #expect(content == "answered", "the previous timeline is kept")
            #expect(fixture.ctl("ping").status == 0)
            #expect(kill(daemon, 0) == 0)
        }

        /// A kind may ask for less than `memory-max` (`provider.memoryMax`), not for more.
        @Test func aKindsLowerMemoryMaxTakesEffect() throws {
            let fixture = try DaemonFixture()
            try fixture.provider("lean", """
                #!/bin/sh
                cat > /dev/null
                perl -e '$x = "a" x ($ARGV[0] * 1024 * 1024)' "$1" || exit
                printf '%s' '\(Self.answer)'
                """)
            for (kind, mib, limit) in [("test.lean", 64, 33_554_432), ("test.greedy", 64, 1 << 40)] {
                let descriptor = #"{"kind": "\#(kind)", "supportedFamilies": ["systemSmall"], "provider": {"exec": ["./lean", "\#(mib)"], "memoryMax": \#(limit)}}"#
                try descriptor.write(toFile: fixture.widgetsDirectory + "/\(kind).json", atomically: true, encoding: .utf8)
            }
            let config = fixture.directory + "/widgetd.conf"
            try "[providers]\nmemory-max = 50331648\n".write(toFile: config, atomically: true, encoding: .utf8)
            try fixture.start(arguments: ["--config", config])
            let lean = try fixture.add("test.lean")
            let greedy = try fixture.add("test.greedy")
            let leanError = Self.lastError(fixture, lean)
            let greedyError = Self.lastError(fixture, greedy)
            print("64 MiB under provider.memoryMax = 32 MiB: \(leanError ?? "no error"); asking 1 TiB under memory-max = 48 MiB: \(greedyError ?? "no error")")
            #expect(leanError?.contains("(past memory-max = 33554432 bytes)") == true, "\(leanError ?? "no error")")
            #expect(greedyError?.contains("(past memory-max = 50331648 bytes)") == true, "\(greedyError ?? "no error")")
            #expect(fixture.ctl("ping").status == 0)
        }

        /// `cpu-max` is the launch's RLIMIT_CPU: a provider spinning past one second of CPU
        /// is stopped by SIGXCPU long before its time-out, and the reason names the key.
        @Test func aProviderSpinningPastCPUMaxIsStopped() throws {
            let fixture = try DaemonFixture()
            let config = fixture.directory + "/widgetd.conf"
            try "[providers]\ncpu-max = 1s\n".write(toFile: config, atomically: true, encoding: .utf8)
            try fixture.provider("spin", """
                #!/bin/sh
                cat > /dev/null
                ulimit -c 0
                while :; do :; done
                """)
            try fixture.descriptor("test.spin", exec: ["./spin"], timeout: 120)
            try fixture.start(arguments: ["--config", config])
            let id = try fixture.add("test.spin")
            let error = Self.lastError(fixture, id)
            print("spinning under cpu-max = 1s: \(error ?? "no error")")
            #expect(error == "killed by signal 24 (past cpu-max = 1 s of CPU)")
            #expect(fixture.ctl("ping").status == 0)
        }
    }
}
