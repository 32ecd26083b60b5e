import Foundation
import Glibc
import Testing
@testable import WidgetTestSupport
@testable import WidgetIntegrationSupport

extension Integration {
    /// Files another user could write are never run as the
    /// daemon's user, descriptor input is bounded and read off the event loop, and the state
    /// files are readable by their owner only.
    @Suite struct HostileFileModes {
        /// A provider that leaves `marker` behind when it runs (then answers one entry).
        private static func markingProvider(_ marker: String) -> String {
            """
            #!/bin/sh
            touch "\(marker)"
            cat > /dev/null
            printf '{"entries":[{"date":"2026-01-05T08:00:00Z","content":"ran"}],"policy":"never"}'
            """
        }

        private static func descriptor(_ kind: String, exec: String, owner: String? = nil) -> String {
            let owned = owner.map { #","owner":{"user":"\#($0)"}"# } ?? ""
            return #"{"kind":"\#(kind)","supportedFamilies":["systemSmall"],"provider":{"exec":["\#(exec)"]}\#(owned)}"#
        }

        private static func problem(_ fixture: DaemonFixture, kind: String) -> String? {
            let widgets = fixture.ctl("--json", "widgets").object["widgets"] as? [[String: Any]] ?? []
            return widgets.first { $0["kind"] as? String == kind }?["problem"] as? String
        }

        private static func skipped(_ fixture: DaemonFixture) -> [String: String] {
            let problems = fixture.ctl("--json", "widgets").object["problems"] as? [[String: Any]] ?? []
            var byPath: [String: String] = [:]
            for problem in problems {
                if let path = problem["path"] as? String { byPath[path] = problem["reason"] as? String ?? "" }
            }
            return byPath
        }

        @Test(.needs(AuthUsers.unavailable))
        func providersAndDirectoriesOthersCanWriteAreRefusedAndNeverRun() throws {
            let fixture = try DaemonFixture()
            let users = try AuthUsers.open(for: fixture)
            defer { users.remove(after: fixture) }
            let dir = fixture.widgetsDirectory
            func marker(_ name: String) -> String { fixture.directory + "/ran-" + name }

            // Writable by everyone.
            try fixture.provider("world", Self.markingProvider(marker("world")))
            chmod(dir + "/world", 0o777)
            try Self.descriptor("hostile.world", exec: "./world").write(toFile: dir + "/world.json", atomically: true, encoding: .utf8)
            // Owned by a user who does not own the kind.
            try fixture.provider("foreign", Self.markingProvider(marker("foreign")))
            chown(dir + "/foreign", users.other.uid, users.other.gid)
            try Self.descriptor("hostile.foreign", exec: "./foreign").write(toFile: dir + "/foreign.json", atomically: true, encoding: .utf8)
            // Owned by the kind's owner: allowed, as sshd allows a user's own files.
            try fixture.provider("owned", Self.markingProvider(marker("owned")))
            chown(dir + "/owned", users.owner.uid, users.owner.gid)
            try Self.descriptor("hostile.owned", exec: "./owned", owner: AuthUsers.ownerName)
                .write(toFile: dir + "/owned.json", atomically: true, encoding: .utf8)
            // Sound at start, made writable later.
            try fixture.provider("later", Self.markingProvider(marker("later")))
            try Self.descriptor("hostile.later", exec: "./later").write(toFile: dir + "/later.json", atomically: true, encoding: .utf8)
            // A widgets directory everyone may write into.
            let open = fixture.directory + "/open"
            mkdir(open, 0o777)
            chmod(open, 0o777)
            try fixture.start(arguments: ["--widgets-dir", open])
            chmod(fixture.socketPath, 0o666)

            let world = try #require(Self.problem(fixture, kind: "hostile.world"), "hostile.world has no problem")
            #expect(world.contains("\(dir)/world") && world.contains("writable") && world.contains("0777"), "\(world)")
            let foreign = try #require(Self.problem(fixture, kind: "hostile.foreign"), "hostile.foreign has no problem")
            #expect(foreign.contains("\(dir)/foreign") && foreign.contains("owned by uid \(users.other.uid)"), "\(foreign)")
            #expect(Self.problem(fixture, kind: "hostile.owned") == nil)
            #expect(Self.problem(fixture, kind: "hostile.later") == nil)
            let openProblem = Self.skipped(fixture)[open]
            #expect(openProblem?.contains("writable") == true, "\(Self.skipped(fixture))")

            // `widgets check` names the same problems without a daemon.
            let check = fixture.ctl("widgets", "check", dir + "/world.json", dir + "/foreign.json", dir + "/owned.json")
            #expect(check.status != 0)
            #expect(check.stderr.contains("0777") && check.stderr.contains("owned by uid \(users.other.uid)"), "\(check.stderr)")
            #expect(!check.stderr.contains("owned.json"), "\(check.stderr)")

            // Neither preview (open to every reader) nor a reload runs a refused provider.
            for kind in ["hostile.world", "hostile.foreign"] {
                let preview = users.ctl(as: users.other, ["preview", kind, "--family", "systemSmall"], socket: fixture.socketPath).result
                #expect(preview.status != 0 && preview.stderr.contains("cannot be used"), "\(kind): \(preview.stderr)")
                let asRoot = fixture.ctl("preview", kind, "--family", "systemSmall")
                #expect(asRoot.status != 0, "\(kind): \(asRoot.stdout)")
                #expect(fixture.ctl("add", kind, "--family", "systemSmall").status != 0)
            }

            // Another user drops a descriptor and a provider into the open directory.
            let drop = """
                printf '%s' '\(Self.descriptor("hostile.dropped", exec: "./dropped"))' > \(open)/dropped.json
                printf '%s' '\(Self.markingProvider(marker("dropped")))' > \(open)/dropped
                chmod 755 \(open)/dropped
                """
            let dropper = Process()
            dropper.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
            dropper.arguments = ["--reuid=\(users.other.uid)", "--regid=\(users.other.gid)", "--init-groups", "--", "/bin/sh", "-c", drop]
            try dropper.run()
            let overdue = dropper.deadline(60, "the other user's drop")
            dropper.waitUntilExit()
            overdue.end()
            #expect(dropper.terminationStatus == 0)
            try fixture.waitUntil("the dropped descriptor to be reported") { Self.skipped(fixture)[open + "/dropped.json"] != nil }
            #expect(Self.skipped(fixture)[open + "/dropped.json"]?.contains("\(open) is writable") == true, "\(Self.skipped(fixture))")
            #expect(!fixture.kinds().contains("hostile.dropped"))
            let droppedPreview = users.ctl(as: users.other, ["preview", "hostile.dropped", "--family", "systemSmall"], socket: fixture.socketPath)
            #expect(droppedPreview.result.status != 0)
            let droppedCheck = fixture.ctl("widgets", "check", open + "/dropped.json")
            #expect(droppedCheck.status != 0 && droppedCheck.stderr.contains("\(open) is writable"), "\(droppedCheck.stderr)")

            // A provider that was sound is checked again at its launch.
            let later = try fixture.add("hostile.later")
            try fixture.waitUntil("hostile.later's first launch") { FileManager.default.fileExists(atPath: marker("later")) }
            unlink(marker("later"))
            chmod(dir + "/later", 0o777)
            let laterPreview = fixture.ctl("preview", "hostile.later", "--family", "systemSmall")
            #expect(laterPreview.status != 0 && laterPreview.stderr.contains("writable"), "\(laterPreview.stderr)")
            // The reload is refused at once when a read of the directories saw the change first,
            // else its launch is.
            let reload = fixture.ctl("reload", "--instance", later)
            if reload.status == 0 {
                try fixture.waitUntil("the refused launch to be logged") {
                    !fixture.logLines(containing: "later", "writable").isEmpty
                }
            } else {
                #expect(reload.stderr.contains("writable"), "\(reload.stderr)")
            }

            for name in ["world", "foreign", "dropped", "later"] {
                #expect(!FileManager.default.fileExists(atPath: marker(name)), "the \(name) provider ran")
            }
            print("file modes: refused 0777 provider, foreign-owned provider, 0777 widgets dir, provider made 0777 later; none ran")
        }

        /// Generous: a read of the directories must never hold other clients this long.
        static let pingDeadlineMilliseconds = 2_000.0
        /// A descriptor over the limit is never read: the daemon's peak barely moves.
        static let peakGrowthLimitMiB = 16

        @Test func oversizedAndFloodedDescriptorsLeaveTheLoopServing() throws {
            let fixture = try DaemonFixture()
            try fixture.descriptor("test.base", exec: nil)
            try fixture.start()
            let pid = try #require(fixture.pid)
            let before = try ProcessStats.memory(pid)
            let pinger = try FileModePinger(socket: fixture.socketPath)

            // A sparse gigabyte, linked in.
            let big = fixture.directory + "/big.json"
            let fd = open(big, O_CREAT | O_WRONLY, 0o644)
            #expect(ftruncate(fd, 1 << 30) == 0)
            close(fd)
            #expect(symlink(big, fixture.widgetsDirectory + "/big.json") == 0)
            try fixture.waitUntil("big.json to be refused") { Self.skipped(fixture)[fixture.widgetsDirectory + "/big.json"] != nil }
            let reason = Self.skipped(fixture)[fixture.widgetsDirectory + "/big.json"] ?? ""
            #expect(reason.contains("max-descriptor-bytes"), "\(reason)")
            let after = try ProcessStats.memory(pid)
            let growth = (after.peak - before.peak) / 1024
            #expect(growth <= Self.peakGrowthLimitMiB, "VmHWM grew \(growth) MiB")

            // Ten thousand descriptors moved in at once.
            let staging = fixture.directory + "/staging"
            try FileManager.default.createDirectory(atPath: staging, withIntermediateDirectories: true)
            let count = 10_000
            for index in 0..<count {
                let name = String(format: "flood.%05d", index)
                try #"{"kind":"\#(name)","supportedFamilies":["systemSmall"]}"#
                    .write(toFile: staging + "/" + name + ".json", atomically: false, encoding: .utf8)
            }
            for index in 0..<count {
                let name = String(format: "flood.%05d.json", index)
                #expect(rename(staging + "/" + name, fixture.widgetsDirectory + "/" + name) == 0)
            }
            try fixture.waitUntil("the flood to be read", timeout: 120) {
                !fixture.logLines(containing: "descriptors read", "flood.00000").isEmpty
                    && fixture.ctl("--json", "widgets").object["widgets"] != nil
            }
            let (pings, failure) = pinger.stop()
            #expect(failure == nil, "\(failure ?? "")")
            let worst = pings.last ?? 0
            #expect(worst <= Self.pingDeadlineMilliseconds, "a ping waited \(worst) ms")
            let widgets = fixture.ctl("--json", "widgets").object
            let kinds = (widgets["widgets"] as? [[String: Any]])?.count ?? 0
            let problems = widgets["problems"] as? [[String: Any]] ?? []
            let longest = fixture.log().split(separator: "\n").map(\.utf8.count).max() ?? 0
            #expect(longest <= 4096, "a log line of \(longest) bytes")
            let final = try ProcessStats.memory(pid)
            print(String(
                format: "descriptor flood: 1 GiB file refused, VmHWM +%d MiB; %d files moved in, %d kinds loaded, %d problems; pings %@; longest log line %d bytes; VmHWM %d MiB",
                growth, count, kinds, problems.count, FileModePinger.summary(pings), longest, final.peak / 1024))
        }

        @Test func stateFilesAreTheOwnersOnlyInAPreMadeOpenDirectory() throws {
            let fixture = try DaemonFixture()
            try fixture.descriptor("test.push", exec: nil)
            mkdir(fixture.stateDirectory, 0o755)
            chmod(fixture.stateDirectory, 0o755)
            let umask022 = ["/bin/sh", "-c", "umask 022; exec \"$@\"", "sh"]
            try fixture.start(clock: nil, wrapper: umask022)
            _ = try fixture.add("test.push")
            func modes() -> [String: mode_t] {
                var found: [String: mode_t] = [:]
                for name in (try? FileManager.default.contentsOfDirectory(atPath: fixture.stateDirectory)) ?? [] {
                    var status = stat()
                    if lstat(fixture.stateDirectory + "/" + name, &status) == 0, status.st_mode & S_IFMT == S_IFREG {
                        found[name] = status.st_mode & 0o7777
                    }
                }
                return found
            }
            let running = modes()
            #expect(running["state.sqlite"] != nil && running["state.sqlite-wal"] != nil)
            #expect(running.values.allSatisfy { $0 == 0o600 }, "\(running.mapValues { String($0, radix: 8) })")
            #expect(fixture.stop() == 0)

            // Files left readable by an older widgetd are made the owner's only at start.
            for name in modes().keys { chmod(fixture.stateDirectory + "/" + name, 0o644) }
            try fixture.start(clock: nil, wrapper: umask022)
            let restarted = modes()
            #expect(restarted.values.allSatisfy { $0 == 0o600 }, "\(restarted.mapValues { String($0, radix: 8) })")
            print("state files: \(restarted.keys.sorted().map { "\($0) \(String(restarted[$0]!, radix: 8))" }.joined(separator: ", ")) in a 0755 directory")
        }
    }
}
