import Foundation
import WidgetCore
import WidgetProtocol

extension Engine {
    /// WidgetCenter's `invalidateRelevance(ofKind:)`: each instance's provider is asked, with
    /// its `relevance` verb, for fresh relevance about the content it shows; the answers are
    /// installed in one change with the stacks ranked again, and the request is answered once
    /// that change is stored. The asks run at once, up to the providers' concurrency limit.
    func invalidateRelevance(_ params: InvalidateRelevanceParams, _ call: Reply<InvalidateRelevanceResult>) async {
        let asks: [DaemonState.RelevanceAsk]
        let limited: [InstanceID]
        do {
            (asks, limited) = try checked { () throws(StateError) in try state.relevanceAsks(kinds: params.kinds, at: now) }
        } catch {
            return call.fail(error)
        }
        let askedAt = now
        var answers: [(ask: DaemonState.RelevanceAsk, samples: [RelevanceSample])] = []
        var failed: [RelevanceFailure] = []
        await withTaskGroup(of: (DaemonState.RelevanceAsk, Result<[RelevanceSample], RPCError>).self) { group in
            for ask in asks {
                group.addTask { (ask, await self.relevance(ask, at: askedAt)) }
            }
            for await (ask, result) in group {
                switch result {
                case .success(let samples): answers.append((ask, samples))
                case .failure(let error): failed.append(RelevanceFailure(instance: ask.instance, error: error.message))
                }
            }
        }
        answers.sort { $0.ask.instance < $1.ask.instance }
        failed.sort { $0.instance < $1.instance }
        change(call, { state, now throws(StateError) in
            let (plan, installed, dropped) = state.planFreshRelevance(answers, at: now)
            return (plan, (installed, dropped))
        }, answer: { outcome in
            InvalidateRelevanceResult(updated: outcome.0, limited: limited, dropped: outcome.1, failed: failed)
        })
    }

    private func relevance(_ ask: DaemonState.RelevanceAsk, at now: Date) async -> Result<[RelevanceSample], RPCError> {
        guard let descriptor = state.descriptors[ask.kind] else { return .failure(.noProvider(ask.kind)) }
        do {
            let data = try await call(descriptor, ProviderRequest(
                verb: "relevance", kind: ask.kind, family: ask.family, configuration: ask.configuration, now: now,
                instance: ask.instance))
            do {
                return .success(try CallAnswer.relevance(from: data))
            } catch {
                io.logger.warning("provider call failed", metadata: ["kind": "\(ask.kind)", "verb": "relevance", "error": "\(error)"])
                return .failure(.providerFailed(ask.kind, error.description))
            }
        } catch {
            return .failure(error)
        }
    }
}
