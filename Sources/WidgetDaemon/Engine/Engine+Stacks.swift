import Foundation
import WidgetCore
import WidgetProtocol

extension Engine {
    func createStack(_ params: StackCreateParams, _ call: Reply<StackInfo>) {
        let name = params.name.trimmingCharacters(in: .whitespaces)
        changeStack(call, name) { () throws(StateError) in
            try self.state.planCreateStack(
                params.name, smartRotate: params.smartRotate ?? true, at: self.now, reserved: self.commits.flight.ledger.reserved)
        }
    }

    func addToStack(_ params: StackAddParams, _ call: Reply<StackInfo>) {
        changeStack(call, params.name) { () throws(StateError) in
            try self.state.planStackAdd(params.name, instances: params.instances, at: self.now)
        }
    }

    /// The user picks the top: at once, and Smart Rotate holds off for the user hold.
    func swipe(_ params: StackSwipeParams, _ call: Reply<StackInfo>) {
        changeStack(call, params.name) { () throws(StateError) in
            try self.state.planSwipe(params.name, to: params.instance, at: self.now)
        }
    }

    func setSmartRotate(_ params: StackSmartRotateParams, _ call: Reply<StackInfo>) {
        changeStack(call, params.name) { () throws(StateError) in
            try self.state.planSmartRotate(params.name, on: params.on, at: self.now)
        }
    }

    func removeStack(_ params: StackNameParams, _ call: Reply<RemoveResult>) {
        change(call, { () throws(RPCError) in
            try self.checked { () throws(StateError) in try self.state.planRemoveStack(params.name, at: self.now) }
        }, answer: { RemoveResult(removed: params.name) })
    }

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

    /// A stack change, answered with the stack as it is once applied and evaluated.
    private func changeStack(_ call: Reply<StackInfo>, _ name: String, _ make: @escaping () throws(StateError) -> Plan) {
        change(call, { () throws(RPCError) in
            try self.checked { () throws(StateError) in try make() }
        }, answer: { () throws(RPCError) in
            guard let stack = self.state.stacks[name] else { throw .unknownStack(name) }
            return self.info(stack)
        })
    }
}
