import Foundation

/// Which instances a donation matches (docs/smart-stacks.md), without looking at every
/// instance: for each intent type and supported combination the descriptors declare, the
/// instances by the values their configuration gives that combination's parameters. A
/// donation then looks up its own values once per combination.
struct MatchIndex: Sendable, Equatable {
    private struct Combination: Hashable, Sendable {
        var intentType: String
        var parameters: [String]
    }

    private var instances: [Combination: [[JSONValue]: Set<InstanceID>]] = [:]

    /// Indexes an instance under every combination of its kind's schema its configuration fills.
    mutating func insert(_ instance: WidgetInstance, schema: IntentSchema?) {
        for (combination, values) in Self.keys(instance, schema) {
            instances[combination, default: [:]][values, default: []].insert(instance.id)
        }
    }

    mutating func remove(_ instance: WidgetInstance, schema: IntentSchema?) {
        for (combination, values) in Self.keys(instance, schema) {
            instances[combination]?[values]?.remove(instance.id)
            if instances[combination]?[values]?.isEmpty == true { instances[combination]?[values] = nil }
            if instances[combination]?.isEmpty == true { instances[combination] = nil }
        }
    }

    /// The instances `donation` matches, by id.
    func matching(_ donation: Donation) -> Set<InstanceID> {
        var ids = Set<InstanceID>()
        for (combination, byValues) in instances where combination.intentType == donation.intentType {
            let values = combination.parameters.compactMap { donation.parameters[$0] }
            guard values.count == combination.parameters.count, let found = byValues[values] else { continue }
            ids.formUnion(found)
        }
        return ids
    }

    private static func keys(_ instance: WidgetInstance, _ schema: IntentSchema?) -> [(Combination, [JSONValue])] {
        guard let schema else { return [] }
        return schema.supportedCombinations.compactMap { names in
            let values = names.compactMap { instance.configuration[$0] }
            guard !names.isEmpty, values.count == names.count else { return nil }
            return (Combination(intentType: schema.type, parameters: names), values)
        }
    }
}
