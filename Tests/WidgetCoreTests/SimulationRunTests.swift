import Foundation
import Testing
@testable import WidgetCore
@testable import WidgetTestSupport

/// `SimulationRun` stepped from outside, as the daemon steps it when it runs the providers.
@Suite struct SimulationRunTests {
    /// An answer that tells when it was asked: entries at the launch's virtual date and half an
    /// hour later whose content is that date's hour after t0, and a reload an hour later.
    static func answer(_ launch: Launch) -> [MemberOutcome] {
        let hour = Int64(launch.date.timeIntervalSince(t0) / 3600)
        let timeline = WidgetTimeline(
            entries: [
                WidgetEntry(date: launch.date, content: .integer(hour)), WidgetEntry(date: launch.date + 1800, content: .integer(-hour)),
            ],
            policy: .after(launch.date + 3600))
        return launch.members.map { _ in .timeline(timeline) }
    }

    @Test func answersAreAppliedAtTheVirtualDates() throws {
        var state = makeState()
        let id = try state.added("k.clock").0
        let before = state.instances[id]?.timeline
        var run = SimulationRun(state, from: t0, to: t0 + 5 * 3600 + 60)
        var asked: [Date] = []
        while let launches = run.next() {
            asked += launches.map(\.date)
            // Each launch is handed out at the virtual instant it is due.
            #expect(launches.allSatisfy { $0.date == run.now })
            run.answer(launches.map(Self.answer))
            // The answer is the state's at once, dated as asked.
            #expect(contentOf(run.state, id) == .integer(Int64(run.now.timeIntervalSince(t0) / 3600)))
            run.countProviderLaunch()
        }
        #expect(asked == (0...5).map { t0 + Double($0) * 3600 })
        let report = run.report
        #expect(report.reloads.map(\.date) == asked)
        // An answer's own first entry is current when it comes; its second comes half an hour on.
        #expect(report.entryChanges.map(\.date) == asked.dropLast().map { $0 + 1800 })
        #expect(report.counts.providerLaunches == 6)
        #expect(report.counts.failed == 0)
        // The run stepped a copy.
        #expect(state.instances[id]?.timeline == before)
    }

    /// A failed answer is a failed reload, as the daemon records it: the timeline stays and the
    /// provider is asked again after the minimum spacing.
    @Test func failedAnswersAreFailedReloads() throws {
        var state = makeState()
        let id = try state.added("k.clock").0
        var run = SimulationRun(state, from: t0, to: t0 + 2 * 3600)
        var first = true
        while let launches = run.next() {
            if first {
                run.answer(launches.map(Self.answer))
                first = false
            } else {
                run.answer(launches.map { $0.members.map { _ in .failed("exit status 3", cause: "exit") } })
            }
        }
        let report = run.report
        #expect(report.reloads.first?.error == nil)
        #expect(report.reloads.dropFirst().allSatisfy { $0.error == "exit status 3" })
        #expect(report.counts.failed == report.reloads.count - 1)
        #expect(report.reloads.count >= 3)
        #expect(contentOf(run.state, id) == .integer(0))
    }

    /// The held-timeline simulation is the run answered with `heldOutcomes`.
    @Test func simulateIsTheRunAnsweredWithHeldTimelines() throws {
        let (state, _, _) = try SimulationTests.rotatingStack()
        var withReload = state
        _ = try withReload.added("k.clock", stack: "home")
        var run = SimulationRun(withReload, from: t0, to: t0 + 24 * 3600)
        while let launches = run.next() { run.answer(launches.map(run.heldOutcomes)) }
        #expect(run.report == withReload.simulate(from: t0, to: t0 + 24 * 3600))
    }

    private func contentOf(_ state: DaemonState, _ id: InstanceID) -> JSONValue? {
        state.instances[id]?.timeline?.timeline.entries.first.map(\.content)
    }
}
