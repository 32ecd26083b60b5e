import Foundation
import WidgetCore
import WidgetProtocol

extension Engine {
    /// A stack; showing it counts as showing its top, unless the viewer is not a host (a
    /// read by anyone else changes nothing).
    func showStack(_ params: StackNameParams, _ call: Reply<StackInfo>) {
        guard let stack = state.stacks[params.name] else { return call.fail(.unknownStack(params.name)) }
        if call.trusted || mayManage(call.caller), let change = state.noteShown(stack.top, at: now) {
            storeInBackground([change])
        }
        call.succeed(info(stack))
    }

    func listStacks(_ call: Reply<[StackInfo]>) {
        call.succeed(state.stacks.names.compactMap { state.stacks[$0] }.map(info))
    }

    /// What a host is told of a stack: its state, and whether its top is invalidated.
    private func info(_ stack: StackState) -> StackInfo {
        var info = StackInfo(stack)
        info.invalidated = stack.top.flatMap { state.instances[$0]?.invalidation } != nil ? true : nil
        return info
    }

    func explain(_ params: StackNameParams, _ call: Reply<Explanation>) {
        let explanation: StackExplanation
        do {
            explanation = try checked { () throws(StateError) in try state.explain(params.name, at: now) }
        } catch {
            return call.fail(error)
        }
        let stack = explanation.state
        let answer = Explanation(
            stack: stack.name, top: stack.top, now: now, smartRotate: stack.smartRotate, candidates: explanation.candidates,
            best: explanation.best, why: explanation.why)
        call.succeed(redacted(answer, for: call.call, among: Set(stack.instances)))
    }

    /// A stack as a change leaves it: what a stack change answers with once applied and evaluated.
    func stackInfo(_ name: String) throws(RPCError) -> StackInfo {
        guard let stack = state.stacks[name] else { throw .unknownStack(name) }
        return info(stack)
    }
}
