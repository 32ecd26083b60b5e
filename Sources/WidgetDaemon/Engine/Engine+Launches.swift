import Foundation
import WidgetCore
import WidgetProtocol

extension Engine {
    /// Starts a provider launch; it runs while the engine keeps serving, and its result comes
    /// back as a change of its own.
    func start(_ launch: Launch, _ settlement: Settlement?) {
        settlement?.begin()
        let invocation = Self.invocation(launch, settings: state.settings, owner: state.descriptors[launch.kind]?.owner)
        io.logger.debug(
            "provider launch",
            metadata: ["kind": "\(launch.kind)", "instances": "\(launch.members.map(\.id).joined(separator: ","))",
                       "reasons": "\(launch.reasons.map(\.rawValue).joined(separator: ","))"])
        let runner = self.io.runner
        let token = launch.token
        let count = launch.members.count
        let task = Task { [self] in
            let outcome = await Self.run(invocation, on: runner, members: count)
            self.launchFinished(token, outcome)
        }
        launches.book.running[token] = LaunchBook.Running(launch: launch, settlement: settlement, task: task)
    }

    /// How `launch`'s provider is run: asked for the timelines of its members with the launch's
    /// date as `now` (the virtual instant on the virtual clock, or in a simulation).
    nonisolated static func invocation(_ launch: Launch, settings: DaemonSettings, owner: KindOwner?) -> ProviderInvocation {
        ProviderInvocation(
            exec: launch.provider.exec, verb: "timeline",
            request: ProviderRequest(verb: "timeline", members: launch.members, now: launch.date).json(),
            timeout: launch.provider.timeout ?? settings.providerTimeout, maxAnswerBytes: settings.maxAnswerBytes, owner: owner,
            memoryMax: settings.memoryMax(for: launch.provider), cpuMax: settings.cpuMax(for: launch.provider),
            cpuQuota: settings.providerCPUQuota)
    }

    /// Runs the provider and reads its answer, off the engine's loop.
    nonisolated static func run(
        _ invocation: ProviderInvocation, on runner: any ProviderRunning, members count: Int
    ) async -> Result<[MemberOutcome], ProviderFailure> {
        do throws(ProviderFailure) {
            let data = try await runner.run(invocation)
            return .success(try TimelineAnswer.timelines(from: data, count: count).map { answer in
                switch answer {
                case .success(let timeline): .timeline(timeline)
                case .failure(let failure): .failed(failure.description, cause: failure.cause)
                }
            })
        } catch {
            return .failure(error)
        }
    }

    /// A launch came back. On the virtual clock results are applied in the order the launches
    /// started, so the same script gives the same result whichever provider is faster.
    private func launchFinished(_ token: UInt64, _ outcome: Result<[MemberOutcome], ProviderFailure>) {
        guard let running = launches.book.running[token] else { return }
        switch outcome {
        case .success(let answers):
            launches.book.finished[token] = answers
        case .failure where time.stopping:
            // Killed by the shutdown, not by its own fault: nothing to record, charge or retry.
            launches.book.finished[token] = .some(nil)
        case .failure(let failure):
            launches.book.finished[token] = Array(
                repeating: .failed(failure.description, cause: failure.cause), count: running.launch.members.count)
        }
        while let next = time.clock.isVirtual ? launches.book.running.keys.min() : token,
            let ready = launches.book.finished.removeValue(forKey: next)
        {
            let done = launches.book.running.removeValue(forKey: next)!
            launches.book.applying += 1
            if let outcomes = ready {
                finish(done, outcomes)
            } else {
                launches.book.applying -= 1
                done.settlement?.end()
                launchApplied()
            }
            if !time.clock.isVirtual { break }
        }
    }

    private func finish(_ running: LaunchBook.Running, _ outcomes: [MemberOutcome]) {
        let launch = running.launch
        let settlement = running.settlement
        // On the virtual clock the launches of one instant land together: their stacks are
        // evaluated once all of them are in (see `settle`), not on a state between two.
        let evaluate = !time.clock.isVirtual
        var attempt = Attempt(
            make: { self.state.planLaunchResult(launch, outcomes: outcomes, at: self.now, evaluate: evaluate) },
            applied: {
                settlement?.end()
                self.launchApplied()
            },
            refused: { refusal in
                // Nothing of the launch is stored: each instance keeps its previous timeline and
                // retries, as after a failed launch. The storage fault was logged once already.
                let failed = MemberOutcome.failed("state not saved: \(refusal)", cause: "storage")
                self.apply(self.state.planLaunchResult(
                    launch, outcomes: Array(repeating: failed, count: launch.members.count), at: self.now, logFailures: false,
                    evaluate: evaluate))
                self.launches.book.applying -= 1
                self.settle(settlement, launching: nil)
                settlement?.end()
                self.launchApplied()
            },
            settlement: settlement, launchSettlement: nil)
        attempt.onApply = { self.launches.book.applying -= 1 }
        // The answer is shown and told at once; its commit follows in the group commit.
        attempt.applyFirst = true
        attempt.unsaved = { error in
            // Shown but not stored: the request that asked for it is still stored, so a restart
            // fetches it again; until then it is retried like a failed launch.
            let failed = MemberOutcome.failed("state not saved: \(error)", cause: "storage")
            self.apply(self.state.planLaunchResult(
                launch, outcomes: Array(repeating: failed, count: launch.members.count), at: self.now, logFailures: false,
                evaluate: evaluate))
            self.settle(settlement, launching: nil)
            settlement?.end()
            self.launchApplied()
        }
        self.attempt(attempt)
    }

    /// A launch's result is applied (`applying` was counted down as it was) and its
    /// consequences are under way.
    private func launchApplied() {
        guard launches.book.isIdle else { return }
        let waiters = launches.book.idleWaiters
        launches.book.idleWaiters = []
        for waiter in waiters { waiter.resume() }
    }

    /// Waits until no launch runs and every result has been applied.
    func launchesIdle() async {
        guard !launches.book.isIdle else { return }
        await withCheckedContinuation { launches.book.idleWaiters.append($0) }
    }
}
