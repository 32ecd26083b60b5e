import Foundation
import WidgetCore
import WidgetProtocol

/// Every method of the control socket served: one handler per spec (`Methods`), grouped by
/// domain. The spec says the name, the params, the result and who may call it. A change is
/// planned here with the state (`Engine.change`); a handler starts asynchronous work in a
/// `Task` where it waits on providers or the clock.
enum MethodTable {
    static let instances: [MethodEntry] = [
        .handle(Methods.Add.self) { engine, params, call in Task { await engine.add(params, call) } },
        .handle(Methods.Remove.self) { engine, params, call in
            engine.change(call) { state, now throws(StateError) in
                try state.planRemove(params.id, at: now)
            } answer: { RemoveResult(removed: params.id) }
        },
        .handle(Methods.Configure.self) { engine, params, call in Task { await engine.configure(params, call) } },
        .handle(Methods.List.self) { engine, _, call in engine.list(call) },
        .handle(Methods.Visible.self) { engine, params, call in
            engine.change(call) { state, now throws(StateError) in
                try state.planVisible(params.instances, at: now)
            } answer: { VisibleResult(visible: engine.state.instances.visible.sorted()) }
        },
        .handle(Methods.Preview.self) { engine, params, call in Task { await engine.preview(params, call) } },
        .handle(Methods.Placeholder.self) { engine, params, call in Task { await engine.placeholder(params, call) } },
        .handle(Methods.Options.self) { engine, params, call in Task { await engine.options(params, call) } },
        .handle(Methods.InvalidateConfigurationRecommendations.self) { $0.invalidateConfigurationRecommendations($1, $2) },
    ]

    static let timelines: [MethodEntry] = [
        .handle(Methods.WidgetTimeline.self) { $0.timeline($1, $2) },
        .handle(Methods.Push.self) { engine, params, call in
            engine.change(call) { state, now throws(StateError) in
                try state.planPush(params.id, params.timeline, at: now)
            } answer: {
                PushResult(
                    instance: params.id, entries: params.timeline.entries.count,
                    nextReload: engine.state.scheduler.pendingReload(for: params.id)?.due)
            }
        },
        // A reload's launch starts while the request is being stored; the answer waits for the store.
        .handle(Methods.ReloadTimelines.self) { engine, params, call in
            engine.change(call, applyFirst: true) { state, now throws(StateError) in
                let ids = try state.reloadTargets(kinds: params.kinds, instances: params.instances ?? [])
                return (state.planReload(ids, userInitiated: params.userInitiated ?? false, at: now), ids)
            } answer: { ids in ReloadResult(instances: ids) }
        },
        .handle(Methods.ReloadAllTimelines.self) { engine, params, call in
            engine.change(call, applyFirst: true) { state, now throws(StateError) in
                let ids = state.reloadAllTargets(onlyKinds: call.scope)
                return (state.planReload(ids, userInitiated: params.userInitiated ?? false, at: now), ids)
            } answer: { ids in ReloadResult(instances: ids) }
        },
        .handle(Methods.InvalidateRelevance.self) { engine, params, call in Task { await engine.invalidateRelevance(params, call) } },
        .handle(Methods.Perform.self) { engine, params, call in Task { await engine.perform(params, call) } },
        .handle(Methods.Schedule.self) { engine, _, call in engine.schedule(call) },
        .handle(Methods.Budget.self) { $0.budget($1, $2) },
    ]

    static let stacks: [MethodEntry] = [
        .handle(Methods.StackCreate.self) { engine, params, call in
            engine.change(call) { state, now throws(StateError) in
                try state.planCreateStack(
                    params.name, smartRotate: params.smartRotate ?? true, at: now, reserved: engine.commits.reserved)
            } answer: { () throws(RPCError) in try engine.stackInfo(params.name.trimmingCharacters(in: .whitespaces)) }
        },
        .handle(Methods.StackAdd.self) { engine, params, call in
            engine.change(call) { state, now throws(StateError) in
                try state.planStackAdd(params.name, instances: params.instances, at: now)
            } answer: { () throws(RPCError) in try engine.stackInfo(params.name) }
        },
        .handle(Methods.StackShow.self) { $0.showStack($1, $2) },
        .handle(Methods.StackList.self) { engine, _, call in engine.listStacks(call) },
        .handle(Methods.StackSwipe.self) { engine, params, call in
            engine.change(call) { state, now throws(StateError) in
                try state.planSwipe(params.name, to: params.instance, at: now)
            } answer: { () throws(RPCError) in try engine.stackInfo(params.name) }
        },
        .handle(Methods.StackSmartRotate.self) { engine, params, call in
            engine.change(call) { state, now throws(StateError) in
                try state.planSmartRotate(params.name, on: params.on, at: now)
            } answer: { () throws(RPCError) in try engine.stackInfo(params.name) }
        },
        .handle(Methods.StackRemove.self) { engine, params, call in
            engine.change(call) { state, now throws(StateError) in
                try state.planRemoveStack(params.name, at: now)
            } answer: { RemoveResult(removed: params.name) }
        },
        .handle(Methods.Explain.self) { $0.explain($1, $2) },
        .handle(Methods.Log.self) { $0.decisionLog($1, $2) },
        .handle(Methods.Simulate.self) { $0.simulate($1, $2) },
    ]

    static let donations: [MethodEntry] = [
        .handle(Methods.Donate.self) { engine, params, call in
            engine.change(call) { state, now throws(StateError) in
                let donation = Donation(
                    intentType: params.intentType, parameters: params.parameters ?? [:], date: params.date ?? now, id: params.id,
                    group: params.group)
                return try state.planDonate(donation, at: now, reserved: engine.commits.reserved)
            } answer: { matched in DonateResult(matched: matched) }
        },
        .handle(Methods.DonationsDelete.self) { engine, params, call in
            let selector: DaemonState.DonationSelector
            do throws(RPCError) { selector = try params.selector() } catch { return call.fail(error) }
            engine.change(call) { state, now throws(StateError) in
                state.planDeleteDonations(selector, onlyKinds: call.scope, at: now)
            } answer: { deleted in DonationsDeleteResult(deleted: deleted) }
        },
        .handle(Methods.DonationsList.self) { engine, params, call in
            // A kind's owner sees the donations of its kinds' intent types.
            call.succeed(engine.state.listDonations(intentType: params.intentType, onlyKinds: call.scope))
        },
    ]

    static let clock: [MethodEntry] = [
        .handle(Methods.Clock.self) { engine, _, call in engine.clock(call) },
        .handle(Methods.ClockAdvance.self) { engine, params, call in Task { await engine.advance(params, call) } },
        .handle(Methods.ClockSet.self) { engine, params, call in Task { await engine.setClock(params, call) } },
    ]

    static let context: [MethodEntry] = [
        .handle(Methods.Context.self) { engine, _, call in call.succeed(engine.contextInfo()) },
        .handle(Methods.ContextSet.self) { engine, params, call in
            engine.change(call) { state, now throws(StateError) in
                try state.observe(hostValues: params.values, now: now)
            } answer: { engine.contextInfo() }
        },
    ]

    static let introspection: [MethodEntry] = [
        .handle(Methods.Ping.self) { engine, _, call in engine.ping(call) },
        .handle(Methods.Status.self) { engine, _, call in engine.status(call) },
        .handle(Methods.Widgets.self) { engine, _, call in engine.widgets(call) },
        .handle(Methods.WidgetsReload.self) { engine, _, call in engine.widgetsReload(call) },
        .handle(Methods.Subscribe.self) { engine, _, call in engine.subscribe(call) },
    ]

    static let all = instances + timelines + stacks + donations + clock + context + introspection

    /// The entries by name.
    static let byName: [String: MethodEntry] = Dictionary(uniqueKeysWithValues: all.map { ($0.name, $0) })
}
