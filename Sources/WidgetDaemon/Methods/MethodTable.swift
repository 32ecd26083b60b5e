import Foundation
import WidgetCore
import WidgetProtocol

/// Every method of the control socket, declared once, grouped by domain: its name, its
/// params, who may call it and what it acts on, and its handler. Adding a method is one line
/// here (its name in `RPCMethod`) plus its `widgetctl` command.
enum MethodTable {
    static let instances: [MethodEntry] = [
        .manage(.add, AddParams.self) { engine, params, call in Task { await engine.add(params, call) } },
        .manage(.remove, InstanceParams.self) { $0.remove($1, $2) },
        .manage(.configure, ConfigureParams.self) { engine, params, call in Task { await engine.configure(params, call) } },
        .open(.list) { $0.list($1) },
        .manage(.visible, VisibleParams.self) { $0.visible($1, $2) },
        .open(.preview, PreviewParams.self) { engine, params, call in Task { await engine.preview(params, call) } },
        .open(.placeholder, PreviewParams.self) { engine, params, call in Task { await engine.placeholder(params, call) } },
        .open(.options, OptionsParams.self) { engine, params, call in Task { await engine.options(params, call) } },
        .kinds(.invalidateConfigurationRecommendations, InvalidateParams.self, .invalidate, acts: { $0.kind.map { .kinds([$0]) } ?? .callersKinds }) {
            $0.invalidateConfigurationRecommendations($1, $2)
        },
    ]

    static let timelines: [MethodEntry] = [
        .open(.timeline, InstanceParams.self) { $0.timeline($1, $2) },
        .kinds(.push, PushParams.self, .push, acts: { .kinds([], instances: [$0.id]) }) { $0.push($1, $2) },
        .kinds(.reloadTimelines, ReloadTimelinesParams.self, .reload, acts: { .kinds($0.kinds, instances: $0.instances ?? []) }) {
            $0.reloadTimelines($1, $2)
        },
        .kinds(.reloadAllTimelines, ReloadAllParams.self, .reload, acts: { _ in .callersKinds }) { $0.reloadAllTimelines($1, $2) },
        .kinds(.invalidateRelevance, InvalidateRelevanceParams.self, .reload, acts: { .kinds($0.kinds) }) { engine, params, call in
            Task { await engine.invalidateRelevance(params, call) }
        },
        .kinds(.perform, PerformParams.self, .reload, acts: { .kinds([], instances: [$0.instance]) }) { engine, params, call in
            Task { await engine.perform(params, call) }
        },
        .open(.schedule) { $0.schedule($1) },
        .open(.budget, InstanceParams.self) { $0.budget($1, $2) },
    ]

    static let stacks: [MethodEntry] = [
        .manage(.stackCreate, StackCreateParams.self) { $0.createStack($1, $2) },
        .manage(.stackAdd, StackAddParams.self) { $0.addToStack($1, $2) },
        .open(.stackShow, StackNameParams.self) { $0.showStack($1, $2) },
        .open(.stackList) { $0.listStacks($1) },
        .manage(.stackSwipe, StackSwipeParams.self) { $0.swipe($1, $2) },
        .manage(.stackSmartRotate, StackSmartRotateParams.self) { $0.setSmartRotate($1, $2) },
        .manage(.stackRemove, StackNameParams.self) { $0.removeStack($1, $2) },
        .open(.explain, StackNameParams.self) { $0.explain($1, $2) },
        .open(.log, LogParams.self) { $0.decisionLog($1, $2) },
        .open(.simulate, SimulateParams.self) { $0.simulate($1, $2) },
    ]

    static let donations: [MethodEntry] = [
        .kinds(.donate, DonateParams.self, .donate, acts: { .intentType($0.intentType) }) { $0.donate($1, $2) },
        .kinds(.donationsDelete, DonationsDeleteParams.self, .donate, acts: { _ in .callersKinds }) { $0.deleteDonations($1, $2) },
        .kinds(.donationsList, DonationsListParams.self, .donate, acts: { _ in .callersKinds }) { $0.listDonations($1, $2) },
    ]

    static let clock: [MethodEntry] = [
        .open(.clock) { $0.clock($1) },
        .manage(.clockAdvance, ClockAdvanceParams.self) { engine, params, call in Task { await engine.advance(params, call) } },
        .manage(.clockSet, ClockSetParams.self) { engine, params, call in Task { await engine.setClock(params, call) } },
    ]

    static let introspection: [MethodEntry] = [
        .open(.ping) { $0.ping($1) },
        .open(.status) { $0.status($1) },
        .open(.widgets) { $0.widgets($1) },
        // Reading the directories costs the daemon work: not for any caller to trigger at will.
        .manage(.widgetsReload) { $0.widgetsReload($1) },
        .open(.subscribe) { $0.subscribe($1) },
    ]

    /// The entries by name.
    static let byName: [String: MethodEntry] = Dictionary(
        uniqueKeysWithValues: (instances + timelines + stacks + donations + clock + introspection).map { ($0.name, $0) })
}
