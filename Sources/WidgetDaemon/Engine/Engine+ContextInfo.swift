import Foundation
import WidgetCore
import WidgetProtocol

extension Engine {
    /// `context`: what is known now. The location is said only to be known or not.
    func contextInfo() -> ContextInfo {
        let context = state.context
        let locationOn = state.settings.context.location
        let sources = ContextSource.allCases.map { source -> ContextSourceInfo in
            let held = context.sources[source]
            let word: String
            if source == .geoclue && !locationOn {
                word = "off"
            } else {
                word = held?.value.map { $0 ? "available" : "missing" } ?? "unknown"
            }
            return ContextSourceInfo(source: source.rawValue, state: word, since: held?.since)
        }
        let values = [
            ContextValueInfo(
                name: "session", value: context.locked.value.map { $0 ? "locked" : "unlocked" }, since: context.locked.since),
            ContextValueInfo(name: "idle", value: context.idle.value.map { "\($0)" }, since: context.idle.since),
            ContextValueInfo(
                name: "power", value: context.onBattery.value.map { $0 ? "battery" : "ac" }, since: context.onBattery.since),
            ContextValueInfo(name: "power-profile", value: context.powerProfile.value, since: context.powerProfile.since),
            ContextValueInfo(name: "headphones", value: context.headphones.value.map { "\($0)" }, since: context.headphones.since),
            ContextValueInfo(
                name: "location", value: context.locationKnown ? "known" : "unknown", since: context.locationSince),
        ]
        let host = context.hostValues.sorted { $0.key < $1.key }.map { key, held in
            ContextValueInfo(name: key, value: held.value, since: held.since)
        }
        return ContextInfo(sources: sources, values: values, host: host)
    }
}
