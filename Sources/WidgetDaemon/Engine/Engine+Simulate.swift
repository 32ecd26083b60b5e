import Foundation
import WidgetCore
import WidgetProtocol

extension Engine {
    /// `simulate`: a dry run of the coming hours on a copy of the state, from the daemon's now.
    /// The copy is taken on the loop; the run and the encoding of its (large) answer happen off
    /// it, so a big simulation does not hold up other requests, and nothing it does reaches the
    /// state or the store. The answer is handed over on the loop, where a batch collects it.
    ///
    /// With `runProviders` each simulated reload asks the real provider, through the same
    /// runner, timeout and answer limit as a real launch, with the reload's virtual date as
    /// `now`; at most `SimulateParams.maxProviderLaunches` of them, then the timelines held are
    /// used and the report is marked truncated. That runs code, so it takes the right to reload
    /// every kind that has a provider.
    func simulate(_ params: SimulateParams, _ call: Reply<SimulateResult>) {
        let hours = params.hours ?? SimulateParams.defaultHours
        guard hours.isFinite, hours > 0, hours <= SimulateParams.maxHours else {
            return call.fail(.invalidParams("params.hours: a number of hours above 0, at most \(Int(SimulateParams.maxHours))"))
        }
        let limit = params.limit ?? SimulateParams.defaultLimit
        guard limit > 0, limit <= 1_000_000 else { return call.fail(.invalidParams("params.limit: 1...1000000")) }
        let runProviders = params.runProviders ?? false
        if runProviders {
            var asked = call.call
            let kinds = state.descriptors.values.filter { $0.provider != nil }.map(\.kind).sorted()
            guard authorized(&asked, Methods.Simulate.name, .kinds(.reload), .kinds(kinds)) else { return }
        }
        let snapshot = state
        let start = now
        // Read now, on the loop: the report's donations are those of instances stacked at the start.
        let stacked = Set(state.stacks.names.flatMap { state.stacks[$0]?.instances ?? [] })
        let sight = call.trusted ? .everything : donationSights(among: stacked)(call.caller)
        let loop = self.loop
        let runner = self.io.runner
        Task.detached {
            var run = SimulationRun(snapshot, from: start, to: start.addingTimeInterval(hours * 3600), limit: limit)
            var launched = 0
            while let launches = run.next() {
                var answers: [[MemberOutcome]] = []
                for launch in launches {
                    guard runProviders, launched < SimulateParams.maxProviderLaunches else {
                        if runProviders { run.markTruncated() }
                        answers.append(run.heldOutcomes(launch))
                        continue
                    }
                    launched += 1
                    run.countProviderLaunch()
                    answers.append(await Self.outcomes(
                        of: launch, settings: snapshot.settings, owner: snapshot.descriptors[launch.kind]?.owner, on: runner))
                }
                run.answer(answers)
            }
            let answer = call.line(run.report.redacted(for: sight))
            loop.execute { call.send(answer) }
        }
    }

    /// What a launch's provider answers, each member's outcome; a provider that failed as a
    /// whole fails every member, as a real launch records it.
    private nonisolated static func outcomes(
        of launch: Launch, settings: DaemonSettings, owner: KindOwner?, on runner: any ProviderRunning
    ) async -> [MemberOutcome] {
        let count = launch.members.count
        switch await run(invocation(launch, settings: settings, owner: owner), on: runner, members: count) {
        case .success(let outcomes): return outcomes
        case .failure(let failure): return Array(repeating: .failed(failure.description, cause: failure.cause), count: count)
        }
    }
}
