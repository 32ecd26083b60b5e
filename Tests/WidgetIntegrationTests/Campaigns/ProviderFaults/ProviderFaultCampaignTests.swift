import Foundation
import Testing
@testable import WidgetIntegrationSupport

extension Integration {
    /// Providers that hang, crash, print garbage or 100 MiB, drip,
    /// leave children behind, or ask to be reloaded in a loop. The daemon must keep answering
    /// other clients, keep the last good timeline, hold its budget and memory, log each fault
    /// once with its cause, and leak no descriptor or process.
    @Suite struct ProviderFaultCampaign {
        /// Each failing fault happens this many times in a row before the provider recovers.
        static let rounds = 3

        static func seconds(_ duration: Duration) -> Double {
            Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        }

        /// Lines of the daemon's log with `message` about `kind`.
        static func logLines(_ fixture: DaemonFixture, _ message: String, kind: String) -> [Substring] {
            fixture.log().split(separator: "\n").filter {
                $0.contains(" \(message) ") && $0.split(separator: " ").contains("kind=\(kind)")
            }
        }

        @Test func everyFaultIsContainedAndLoggedOnce() throws {
            let fixture = try DaemonFixture()
            try FaultProvider.install(in: fixture)
            for fault in FaultProvider.allCases { FaultProvider.setGood(true, fault, in: fixture) }
            try fixture.start()
            let pid = try #require(fixture.pid)
            var ids: [FaultProvider: String] = [:]
            for fault in FaultProvider.allCases { ids[fault] = try fixture.add(fault.kind) }
            #expect(fixture.ctl("clock", "advance", "0s").status == 0)
            for fault in FaultProvider.allCases {
                #expect(fixture.shownContent(ids[fault]!) == "good \(fault.rawValue)")
            }
            let descriptors = ProcessStats.openDescriptors(pid)
            let targets = ProcessStats.descriptorTargets(pid)
            let campaignStart = ContinuousClock.now

            for fault in FaultProvider.allCases {
                let id = ids[fault]!
                FaultProvider.setGood(false, fault, in: fixture)
                let peakBefore = ProcessStats.peakMemory(pid)
                let probe = try FaultLatencyProbe(socket: fixture.socketPath)
                let start = ContinuousClock.now
                let launches = fault.expectedError == nil ? 1 : Self.rounds
                for _ in 0..<launches {
                    #expect(fixture.ctl("reload", fault.kind, "--user-initiated").status == 0)
                    // Returns once the launch has been applied.
                    #expect(fixture.ctl("clock", "advance", "0s").status == 0)
                }
                let elapsed = Self.seconds(ContinuousClock.now - start)
                let latency = probe.stop()
                let peakAfter = ProcessStats.peakMemory(pid)
                print("fault \(fault.rawValue): \(launches) launches in \(Self.f1(elapsed)) s; other client: \(latency); VmHWM \(peakBefore) -> \(peakAfter) KiB")
                // Responsive: nobody waited long, on a machine loaded by other builds.
                #expect(latency.max < 2, "\(fault): \(latency)")
                #expect(latency.failures == 0)
                #expect(latency.count > 0)

                let timeline = fixture.ctl("--json", "timeline", id).object
                let lastError = timeline["lastError"] as? String
                let shown = (timeline["currentEntry"] as? [String: Any])?["content"] as? String
                if let expected = fault.expectedError {
                    #expect(lastError?.contains(expected) == true, "\(fault): \(lastError ?? "no error")")
                    #expect(shown == "good \(fault.rawValue)", "\(fault): the last good timeline stays")
                } else {
                    // orphan: its answer counts as soon as it exits, not at the time-out.
                    #expect(lastError == nil)
                    #expect(shown == "orphan answer")
                    #expect(elapsed < fault.timeout)
                    let child = try #require(pid_t(Self.read(fixture.directory + "/orphan-child")))
                    let escaped = try #require(pid_t(Self.read(fixture.directory + "/orphan-escaped")))
                    // The child in the provider's process group went with it, and the one
                    // that left for a session of its own (setsid) with the launch's sweep.
                    #expect(Poll.eventually { ProcessStats.isGone(child) })
                    #expect(Poll.eventually { ProcessStats.isGone(escaped) })
                }
                if fault == .flood {
                    // 100 MiB offered, at most max-answer-bytes (4 MiB) read and held.
                    #expect(peakAfter - peakBefore < 48 * 1024, "VmHWM \(peakBefore) -> \(peakAfter) KiB")
                }

                if fault == .exit {
                    // A new cause ends the run: its repeats are summed up once, the new cause logged.
                    _ = FileManager.default.createFile(atPath: fixture.directory + "/exit-now-garbage", contents: Data())
                    #expect(fixture.ctl("reload", fault.kind, "--user-initiated").status == 0)
                    #expect(fixture.ctl("clock", "advance", "0s").status == 0)
                    let changed = fixture.ctl("--json", "timeline", id).object["lastError"] as? String
                    #expect(changed?.hasPrefix("invalid answer: not JSON") == true, "\(changed ?? "no error")")
                }
                FaultProvider.setGood(true, fault, in: fixture)
                #expect(fixture.ctl("reload", fault.kind, "--user-initiated").status == 0)
                #expect(fixture.ctl("clock", "advance", "0s").status == 0)
                #expect(fixture.shownContent(id) == "good \(fault.rawValue)")
                #expect(fixture.ctl("--json", "timeline", id).object["lastError"] == nil)
            }
            print("fault campaign: \(Self.f1(Self.seconds(ContinuousClock.now - campaignStart))) s")

            // Logged once with its cause; the repeats only counted; the recovery once, with the count.
            for fault in FaultProvider.allCases {
                let failed = Self.logLines(fixture, "provider failed; previous timeline kept", kind: fault.kind)
                let again = Self.logLines(fixture, "provider failed again with the same cause", kind: fault.kind)
                let recovered = Self.logLines(fixture, "provider recovered", kind: fault.kind)
                guard let expected = fault.expectedError else {
                    #expect(failed.isEmpty && recovered.isEmpty)
                    continue
                }
                let kept = Self.logLines(fixture, "provider kept failing with the same cause", kind: fault.kind)
                // exit: three times exit 3, then once not JSON.
                let changes = fault == .exit ? 1 : 0
                #expect(failed.count == 1 + changes, "\(fault): \(failed)")
                #expect(failed.first?.contains(expected) == true, "\(fault): \(failed)")
                #expect(failed.allSatisfy { $0.contains(" warning ") })
                #expect(again.count == Self.rounds - 1, "\(fault): \(again)")
                #expect(kept.count == changes, "\(fault): \(kept)")
                #expect(kept.allSatisfy { $0.contains("repeats=\(Self.rounds - 1)") && $0.contains(expected) }, "\(fault): \(kept)")
                #expect(recovered.count == 1, "\(fault): \(recovered)")
                let failures = fault == .exit ? 1 : Self.rounds
                #expect(recovered.first?.contains("failures=\(failures)") == true, "\(fault): \(recovered)")
                for line in failed + kept + recovered { print("logged: \(line)") }
            }

            // A provider's text never starts a line of its own in the log.
            let forged = fixture.log().split(separator: "\n").filter { !$0.hasPrefix("20") }
            #expect(forged.isEmpty, "\(forged.prefix(3))")

            // No descriptor, child or zombie left behind.
            // The notify socket is read too: systemd's stand-in reads only when asked, and a
            // STATUS= datagram that finds its queue full holds a socket open in sd_notify.
            let closed = Poll.eventually {
                _ = fixture.notify?.wait(for: "NOTHING=1", timeout: 0.05)
                return ProcessStats.openDescriptors(pid) <= descriptors
            }
            let added = ProcessStats.descriptorTargets(pid).filter { targets[$0.key] != $0.value }
            #expect(closed, "descriptors left open: \(added)")
            let children = ProcessStats.children(of: pid)
            print("descriptors: \(descriptors) before, \(ProcessStats.openDescriptors(pid)) after; children left: \(children.count)")
            #expect(children.isEmpty, "\(children)")
            #expect(fixture.ctl("ping").status == 0)
        }

        /// Providers whose timelines ask to be reloaded at once (`after` now, and `atEnd` with
        /// its last entry already past), and an app asking for reloads of them in a tight loop,
        /// over two simulated days: the budget holds, and the daemon does not spin.
        @Test func reloadLoopsStayWithinTheBudgetWithoutSpinning() throws {
            let fixture = try DaemonFixture()
            let kinds = try Self.loopProviders(fixture)
            try fixture.start()
            let pid = try #require(fixture.pid)
            for kind in kinds { _ = try fixture.add(kind) }
            #expect(fixture.ctl("clock", "advance", "0s").status == 0)

            let app = try FaultLatencyProbe(socket: fixture.socketPath, pauseMicroseconds: 0) { id in
                #"{"jsonrpc":"2.0","id":\#(id),"method":"reloadTimelines","params":{"kinds":["loop.after","loop.past"]}}"#
            }
            let probe = try FaultLatencyProbe(socket: fixture.socketPath)
            let cpuStart = ProcessStats.cpuSeconds(pid)
            let start = ContinuousClock.now
            let hours = 48
            for _ in 0..<hours {
                #expect(fixture.ctl("clock", "advance", "1h").status == 0)
            }
            let appFigures = app.stop()
            let latency = probe.stop()
            let elapsed = Self.seconds(ContinuousClock.now - start)
            let cpu = ProcessStats.cpuSeconds(pid) - cpuStart
            print("reload loop: \(hours) simulated hours in \(Self.f1(elapsed)) s, daemon CPU \(Self.f1(cpu)) s; app: \(appFigures) reloadTimelines; other client: \(latency)")
            #expect(latency.max < 2, "\(latency)")
            #expect(appFigures.failures == 0)

            // Idle again: nothing may keep the daemon busy while the budget holds the reloads back.
            let idleStart = ProcessStats.cpuSeconds(pid)
            Thread.sleep(forTimeInterval: 3)
            let idle = ProcessStats.cpuSeconds(pid) - idleStart
            print("idle afterwards: \(Self.f1(idle)) s CPU in 3 s")
            #expect(idle < 0.5)

            let limit = 70
            let spacing: TimeInterval = 300
            for kind in kinds {
                let dates = Self.launchDates(fixture, kind)
                // The first load after `add` is exempt; every later one is budgeted.
                let budgeted = Array(dates.dropFirst())
                let gaps = zip(budgeted, budgeted.dropFirst()).map { $1.timeIntervalSince($0) }
                let busiestDay = budgeted.map { end in budgeted.filter { $0 > end.addingTimeInterval(-86400) && $0 <= end }.count }.max() ?? 0
                print("\(kind): \(dates.count) launches in \(hours) h, at most \(busiestDay) budgeted in 24 h, smallest gap \(Int(gaps.min() ?? 0)) s")
                #expect(busiestDay <= limit)
                #expect(busiestDay >= limit - 1, "the budget is used, not starved")
                #expect((gaps.min() ?? spacing) >= spacing)
            }
        }

        /// The same loops on the real clock, where timers are real: the first load, one
        /// budgeted reload, and then nothing until the minimum spacing has passed, however
        /// often the app asks; the daemon sleeps meanwhile.
        @Test func reloadLoopOnTheRealClockWaitsForTheBudget() throws {
            let fixture = try DaemonFixture()
            let kinds = try Self.loopProviders(fixture)
            try fixture.start(clock: nil)
            let pid = try #require(fixture.pid)
            for kind in kinds { _ = try fixture.add(kind) }
            #expect(Poll.eventually { kinds.allSatisfy { !Self.launchDates(fixture, $0).isEmpty } })

            let cpuStart = ProcessStats.cpuSeconds(pid)
            let app = try FaultLatencyProbe(socket: fixture.socketPath, pauseMicroseconds: 0) { id in
                #"{"jsonrpc":"2.0","id":\#(id),"method":"reloadTimelines","params":{"kinds":["loop.after","loop.past"]}}"#
            }
            Thread.sleep(forTimeInterval: 4)
            let appFigures = app.stop()
            let cpu = ProcessStats.cpuSeconds(pid) - cpuStart
            let idleStart = ProcessStats.cpuSeconds(pid)
            Thread.sleep(forTimeInterval: 3)
            let idle = ProcessStats.cpuSeconds(pid) - idleStart
            let counts = kinds.map { Self.launchDates(fixture, $0).count }
            print("reload loop, real clock: app \(appFigures) reloadTimelines in 4 s, daemon CPU \(Self.f1(cpu)) s; launches \(counts); idle afterwards \(Self.f1(idle)) s CPU in 3 s")
            #expect(appFigures.failures == 0)
            #expect(counts.allSatisfy { $0 <= 2 }, "the first load and one budgeted reload, then the spacing: \(counts)")
            #expect(idle < 0.5)
        }

        /// Two providers whose timelines ask to be reloaded at once: `loop.after` (policy
        /// after its `now`) and `loop.past` (atEnd, its last entry an hour before `now`). Each
        /// launch appends its `now` to `KIND.log` in the fixture's folder.
        static func loopProviders(_ fixture: DaemonFixture) throws -> [String] {
            try fixture.provider("loop", #"""
                #!/bin/sh
                now=$(cat | sed -n 's/.*"now":"\([^"]*\)".*/\1/p')
                echo "$now" >> "$2"
                if [ "$1" = after ]; then
                  printf '{"entries":[{"date":"%s","content":"again"}],"policy":{"after":"%s"}}\n' "$now" "$now"
                else
                  past=$(date -u -d "@$(( $(date -u -d "$now" +%s) - 3600 ))" +%Y-%m-%dT%H:%M:%SZ)
                  printf '{"entries":[{"date":"%s","content":"again"}],"policy":"atEnd"}\n' "$past"
                fi
                """#)
            let kinds = ["loop.after", "loop.past"]
            for kind in kinds {
                let style = String(kind.dropFirst("loop.".count))
                try fixture.descriptor(kind, exec: ["./loop", style, fixture.directory + "/" + kind + ".log"])
            }
            return kinds
        }

        static func launchDates(_ fixture: DaemonFixture, _ kind: String) -> [Date] {
            read(fixture.directory + "/" + kind + ".log").split(separator: "\n").compactMap { date(String($0)) }
        }

        /// A provider's `now`: ISO 8601, with or without a fraction of a second.
        static func date(_ text: String) -> Date? {
            (try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text)) ?? (try? Date.ISO8601FormatStyle().parse(text))
        }

        static func f1(_ value: Double) -> String { String(format: "%.1f", value) }

        static func read(_ path: String) -> String {
            ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        }
    }
}
