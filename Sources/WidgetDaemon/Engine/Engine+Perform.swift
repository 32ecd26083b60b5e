import Foundation
import WidgetCore
import WidgetProtocol

extension Engine {
    /// `perform`: runs an action of the entry an instance shows. The instance is marked
    /// invalidated, its provider performs the intent (`perform` verb), then the instance is
    /// reloaded at once; the host is answered with the provider's result once that reload is
    /// stored. A provider that fails leaves nothing invalidated and nothing reloaded.
    func perform(_ params: PerformParams, _ call: Reply<PerformResult>) async {
        let ask: DaemonState.PerformAsk
        do {
            ask = try checked { () throws(StateError) in
                try state.performAsk(instance: params.instance, action: params.action, at: now)
            }
        } catch {
            return call.fail(error)
        }
        guard let descriptor = state.descriptors[ask.kind] else { return call.fail(unknownKind(ask.kind)) }
        apply(state.planInvalidate(ask, at: now))
        let result: JSONValue
        do throws(RPCError) {
            let data = try await self.call(descriptor, ProviderRequest(
                verb: "perform", kind: ask.kind, family: ask.family, configuration: ask.configuration, now: now,
                instance: ask.instance, intent: ask.intent))
            do {
                result = try CallAnswer.performed(from: data)
            } catch {
                io.logger.warning("provider call failed", metadata: ["kind": "\(ask.kind)", "verb": "perform", "error": "\(error)"])
                throw .providerFailed(ask.kind, error.description)
            }
        } catch {
            apply(state.planPerformFailed(ask, error: error.message, at: now))
            return call.fail(error)
        }
        let exempt = state.takeExemptActionReload(ask.instance, at: now)
        change(call, applyFirst: true, { state, now throws(StateError) in
            state.planActionReload(ask, exempt: exempt, at: now)
        }, answer: {
            PerformResult(instance: ask.instance, action: ask.action, result: result, reload: exempt ? "exempt" : "budgeted")
        })
    }
}
