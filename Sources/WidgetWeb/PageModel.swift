import Foundation
import WidgetCore
import WidgetProtocol
import WidgetdClient

/// What the page draws, read from widgetd in one batch: the stacks in order, each instance's
/// card already rendered, and the instances in no stack.
struct PageModel: Encodable, Sendable {
    struct Stack: Encodable, Sendable {
        var name: String
        var top: InstanceID?
        var instances: [InstanceID]
        var smartRotate: Bool
    }

    struct Card: Encodable, Sendable {
        var id: InstanceID
        var kind: String
        var family: WidgetFamily
        var displayName: String
        var configuration: [String: JSONValue]
        var configurable: Bool
        /// When the entry shown became current; nil before the first timeline.
        var entryDate: Date?
        var html: String
        /// The shown entry's actions, as buttons under the card.
        var actions: [CardActions.Button]
        /// Shown dimmed from a tap until the new timeline lands (WidgetKit's `invalidatableContent`).
        var invalidated: Bool
    }

    var now: Date
    var clock: String
    var stacks: [Stack]
    /// Instances in no stack, in placement order.
    var loose: [InstanceID]
    var cards: [InstanceID: Card]
    /// The stacks and cards as the page shows them, rendered here once for every page.
    var markup: PageMarkup

    /// Reads `list`, `stack.list`, `widgets` and `clock` in one round trip (a `list` between
    /// two calls could miss an instance a stack names).
    static func read(_ connection: WidgetdConnection, renderer: CardRenderer) throws(WidgetdClientError) -> PageModel {
        let answers = try connection.batch([
            BatchCall(Methods.List.self), BatchCall(Methods.StackList.self), BatchCall(Methods.Widgets.self),
            BatchCall(Methods.Clock.self),
        ])
        let instances = try answers[0].result(of: Methods.List.self)
        let actions = CardActions.read(try answers[0].decode([JSONValue].self))
        let stacks = try answers[1].result(of: Methods.StackList.self)
        let kinds = try answers[2].result(of: Methods.Widgets.self).widgets
        let clock = try answers[3].result(of: Methods.Clock.self)
        let kindsByName = Dictionary(kinds.map { ($0.kind, $0) }, uniquingKeysWith: { first, _ in first })
        var cards: [InstanceID: Card] = [:]
        for instance in instances {
            let kind = kindsByName[instance.kind]
            let displayName = kind?.displayName ?? instance.kind
            let extra: [String: JSONValue] = [
                "instance": .string(instance.id), "kind": .string(instance.kind), "family": .string(instance.family.rawValue),
                "displayName": .string(displayName),
                "date": instance.currentEntry.map { .string(ISO8601.wholeSecondString(from: $0.date)) } ?? .null,
            ]
            cards[instance.id] = Card(
                id: instance.id, kind: instance.kind, family: instance.family, displayName: displayName,
                configuration: instance.configuration, configurable: !(kind?.intent?.parameters.isEmpty ?? true),
                entryDate: instance.currentEntry?.date,
                html: renderer.html(instance.currentEntry, kind: kind, extra: extra, now: clock.now),
                actions: actions[instance.id]?.buttons ?? [], invalidated: actions[instance.id]?.invalidated ?? false)
        }
        let stacked = Set(stacks.flatMap(\.instances))
        var model = PageModel(
            now: clock.now, clock: clock.mode,
            stacks: stacks.map { Stack(name: $0.name, top: $0.top, instances: $0.instances, smartRotate: $0.smartRotate) },
            loose: instances.map(\.id).filter { !stacked.contains($0) }, cards: cards, markup: .none)
        model.markup = PageMarkup(model)
        return model
    }
}
