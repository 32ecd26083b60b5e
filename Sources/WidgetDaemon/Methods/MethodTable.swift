import Foundation
import WidgetCore
import WidgetProtocol

/// Every method of the control socket served: one handler per spec (`Methods`), grouped by
/// domain. The spec says the name, the params, the result and who may call it; a handler
/// starts asynchronous work in a `Task` where it waits on providers or the clock.
enum MethodTable {
    static let instances: [MethodEntry] = [
        .handle(Methods.Add.self) { engine, params, call in Task { await engine.add(params, call) } },
        .handle(Methods.Remove.self) { $0.remove($1, $2) },
        .handle(Methods.Configure.self) { engine, params, call in Task { await engine.configure(params, call) } },
        .handle(Methods.List.self) { engine, _, call in engine.list(call) },
        .handle(Methods.Visible.self) { $0.visible($1, $2) },
        .handle(Methods.Preview.self) { engine, params, call in Task { await engine.preview(params, call) } },
        .handle(Methods.Placeholder.self) { engine, params, call in Task { await engine.placeholder(params, call) } },
        .handle(Methods.Options.self) { engine, params, call in Task { await engine.options(params, call) } },
        .handle(Methods.InvalidateConfigurationRecommendations.self) { $0.invalidateConfigurationRecommendations($1, $2) },
    ]

    static let timelines: [MethodEntry] = [
        .handle(Methods.Timeline.self) { $0.timeline($1, $2) },
        .handle(Methods.Push.self) { $0.push($1, $2) },
        .handle(Methods.ReloadTimelines.self) { $0.reloadTimelines($1, $2) },
        .handle(Methods.ReloadAllTimelines.self) { $0.reloadAllTimelines($1, $2) },
        .handle(Methods.InvalidateRelevance.self) { engine, params, call in Task { await engine.invalidateRelevance(params, call) } },
        .handle(Methods.Perform.self) { engine, params, call in Task { await engine.perform(params, call) } },
        .handle(Methods.Schedule.self) { engine, _, call in engine.schedule(call) },
        .handle(Methods.Budget.self) { $0.budget($1, $2) },
    ]

    static let stacks: [MethodEntry] = [
        .handle(Methods.StackCreate.self) { $0.createStack($1, $2) },
        .handle(Methods.StackAdd.self) { $0.addToStack($1, $2) },
        .handle(Methods.StackShow.self) { $0.showStack($1, $2) },
        .handle(Methods.StackList.self) { engine, _, call in engine.listStacks(call) },
        .handle(Methods.StackSwipe.self) { $0.swipe($1, $2) },
        .handle(Methods.StackSmartRotate.self) { $0.setSmartRotate($1, $2) },
        .handle(Methods.StackRemove.self) { $0.removeStack($1, $2) },
        .handle(Methods.Explain.self) { $0.explain($1, $2) },
        .handle(Methods.Log.self) { $0.decisionLog($1, $2) },
        .handle(Methods.Simulate.self) { $0.simulate($1, $2) },
    ]

    static let donations: [MethodEntry] = [
        .handle(Methods.Donate.self) { $0.donate($1, $2) },
        .handle(Methods.DonationsDelete.self) { $0.deleteDonations($1, $2) },
        .handle(Methods.DonationsList.self) { $0.listDonations($1, $2) },
    ]

    static let clock: [MethodEntry] = [
        .handle(Methods.Clock.self) { engine, _, call in engine.clock(call) },
        .handle(Methods.ClockAdvance.self) { engine, params, call in Task { await engine.advance(params, call) } },
        .handle(Methods.ClockSet.self) { engine, params, call in Task { await engine.setClock(params, call) } },
    ]

    static let introspection: [MethodEntry] = [
        .handle(Methods.Ping.self) { engine, _, call in engine.ping(call) },
        .handle(Methods.Status.self) { engine, _, call in engine.status(call) },
        .handle(Methods.Widgets.self) { engine, _, call in engine.widgets(call) },
        .handle(Methods.WidgetsReload.self) { engine, _, call in engine.widgetsReload(call) },
        .handle(Methods.Subscribe.self) { engine, _, call in engine.subscribe(call) },
    ]

    static let all = instances + timelines + stacks + donations + clock + introspection

    /// The entries by name.
    static let byName: [String: MethodEntry] = Dictionary(uniqueKeysWithValues: all.map { ($0.name, $0) })
}
