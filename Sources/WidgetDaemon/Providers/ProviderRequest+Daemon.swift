import Foundation
import WidgetCore

/// The requests the daemon writes: a `timeline` launch of several instances, and the
/// one-instance verbs (`snapshot`, `placeholder`, `options`, `relevance`, `perform`).
extension ProviderRequest {
    /// The top-level fields describe the first of `members`, what a one-instance provider needs.
    init(verb: String, members: [WidgetInstance], now: Date) {
        let first = members[0]
        self.init(
            verb: verb, kind: first.kind, family: first.family, configuration: first.configuration, now: now,
            instance: first.id,
            instances: members.map {
                Member(instance: $0.id, kind: $0.kind, family: $0.family, configuration: $0.configuration)
            })
    }

    /// `instance`: for `relevance` and `perform`, the instance asked about, whose content is the
    /// one shown now; `intent`: for `perform`, the action's intent, its type's defaults filled in.
    init(
        verb: String, kind: String, family: WidgetFamily, configuration: [String: JSONValue], now: Date,
        isPreview: Bool? = nil, parameter: String? = nil, search: String? = nil, instance: InstanceID? = nil,
        intent: ActionIntent? = nil
    ) {
        self.init(
            verb: verb, kind: kind, family: family, configuration: configuration, now: now, instance: instance,
            isPreview: isPreview, parameter: parameter, search: search,
            intent: intent.map { Intent(type: $0.type, parameters: $0.parameters) })
    }
}
