import WidgetCore
import WidgetProtocol

/// `WidgetCenter1`'s methods, each by the method spec that serves it (docs/dbus.md): the
/// only place a D-Bus method is declared. Introspection, argument checks and replies all read
/// from here.
enum DBusMethodTable {
    static let methods: [DBusMethod] = [
        DBusMethod(
            name: "ReloadTimelines", spec: Methods.ReloadTimelines.self, inArgs: [.strings("kinds"), .boolean("userInitiated")],
            outArgs: [.strings("instances")],
            params: { .object(["kinds": $0[0], "userInitiated": $0[1]]) }, result: instances),
        DBusMethod(
            name: "ReloadAllTimelines", spec: Methods.ReloadAllTimelines.self, inArgs: [.boolean("userInitiated")],
            outArgs: [.strings("instances")],
            params: { .object(["userInitiated": $0[0]]) }, result: instances),
        // WidgetKit reloads a kind; widgetd also reloads single instances, through the same method.
        DBusMethod(
            name: "ReloadInstances", spec: Methods.ReloadTimelines.self, inArgs: [.strings("instances"), .boolean("userInitiated")],
            outArgs: [.strings("instances")],
            params: { .object(["instances": $0[0], "userInitiated": $0[1]]) }, result: instances),
        DBusMethod(
            name: "InvalidateRelevance", spec: Methods.InvalidateRelevance.self, inArgs: [.strings("kinds")], outArgs: [.count("updated")],
            params: { .object(["kinds": $0[0]]) }, result: { count($0.objectValue?["updated"]) }),
        DBusMethod(
            name: "GetCurrentConfigurations", spec: Methods.List.self, inArgs: [], outArgs: [.dictionaries("configurations")],
            params: { _ in .object([:]) }, result: configurations),
        DBusMethod(
            name: "Donate", spec: Methods.Donate.self, inArgs: [.string("intentType"), .dictionary("parameters")], outArgs: [.count("matched")],
            params: { .object(["intentType": $0[0], "parameters": $0[1]]) }, result: { count($0.objectValue?["matched"]) }),
        // `which` holds the params as they are: `id`, `group` or `all`.
        DBusMethod(
            name: "DeleteDonations", spec: Methods.DonationsDelete.self, inArgs: [.dictionary("which")], outArgs: [.count("deleted")],
            params: { $0[0] },
            result: { result in
                guard case .integer(let deleted)? = result.objectValue?["deleted"], let value = UInt32(exactly: deleted) else { return nil }
                return [.uint32(value)]
            }),
        DBusMethod(
            name: "Perform", spec: Methods.Perform.self, inArgs: [.string("instance"), .string("action")], outArgs: [.dictionary("result")],
            params: { .object(["instance": $0[0], "action": $0[1]]) },
            result: { result in
                guard case .object(let members) = result else { return nil }
                return [.dictionary(DBusValue.dictionary(members))]
            }),
    ]

    static let byName: [String: DBusMethod] = Dictionary(uniqueKeysWithValues: methods.map { ($0.name, $0) })

    /// `{"instances": [...]}` as `as`.
    private static func instances(_ result: JSONValue) -> [DBusValue]? {
        guard case .array(let values)? = result.objectValue?["instances"] else { return nil }
        let ids = values.compactMap(\.stringValue)
        guard ids.count == values.count else { return nil }
        return [.strings(ids)]
    }

    /// A list of instances, counted.
    private static func count(_ list: JSONValue?) -> [DBusValue]? {
        guard case .array(let values)? = list, let value = UInt32(exactly: values.count) else { return nil }
        return [.uint32(value)]
    }

    /// `list`'s instances as WidgetKit's `WidgetInfo`: id, kind, family, configuration.
    private static func configurations(_ result: JSONValue) -> [DBusValue]? {
        guard case .array(let instances) = result else { return nil }
        var out: [[String: DBusValue]] = []
        for instance in instances {
            guard let id = instance.objectValue?["id"]?.stringValue, let kind = instance.objectValue?["kind"]?.stringValue,
                let family = instance.objectValue?["family"]?.stringValue, case .object(let configuration)? = instance.objectValue?["configuration"]
            else { return nil }
            out.append([
                "id": .string(id), "kind": .string(kind), "family": .string(family),
                "configuration": .dictionary(DBusValue.dictionary(configuration)),
            ])
        }
        return [.dictionaries(out)]
    }
}
