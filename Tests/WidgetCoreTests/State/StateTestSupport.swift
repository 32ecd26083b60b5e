import Foundation
@testable import WidgetCore
@testable import WidgetTestSupport

/// A state with descriptors from JSON text, in UTC, with ids drawn from a fixed seed.
func makeState(_ descriptors: String = StateFixtures.clock, settings: DaemonSettings = DaemonSettings()) -> DaemonState {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    let parsed = (try? DescriptorParser.parse(Data(descriptors.utf8), path: "/etc/test.json")) ?? []
    return DaemonState(
        descriptors: Dictionary(uniqueKeysWithValues: parsed.map { ($0.kind, $0) }), settings: settings, calendar: calendar,
        idSeed: 7)
}

enum StateFixtures {
    /// `k.clock` with a provider and an intent (`city` matters for donations); `k.push`, push-only.
    static let clock = #"""
        [{"kind":"k.clock","supportedFamilies":["systemSmall"],"provider":{"exec":["/bin/true"]},
          "intent":{"type":"Clock","parameters":[{"name":"city","type":"string"}],"supportedCombinations":[["city"]]}},
         {"kind":"k.push","supportedFamilies":["systemSmall"],
          "intent":{"type":"Clock","parameters":[{"name":"city","type":"string"}],"supportedCombinations":[["city"]]}}]
        """#
}

extension DaemonState {
    /// Plans, then applies as if the store had committed: the id and the plan.
    @discardableResult
    mutating func added(
        _ kind: String = "k.clock", configuration: [String: JSONValue] = [:], stack: String? = nil, at now: Date = t0
    ) throws -> (InstanceID, Plan) {
        let id = makeInstanceID()
        let plan = try planAdd(
            id: id, kind: kind, family: .systemSmall, configuration: configuration, stack: stack, at: now,
            reserved: LimitReservations())
        apply(plan)
        return (id, plan)
    }

    /// A timeline of entries at the given offsets from `t0` (content: the offset), policy never.
    static func timeline(_ offsets: [TimeInterval], scores: [Double?] = [], policy: ReloadPolicy = .never) -> WidgetTimeline {
        WidgetTimeline(
            entries: offsets.enumerated().map { index, offset in
                let score = index < scores.count ? scores[index] : nil
                return WidgetEntry(
                    date: t0 + offset, content: .integer(Int64(offset)), relevance: score.map { EntryRelevance(score: $0) })
            },
            policy: policy)
    }
}

extension Plan {
    var storedKinds: [String] {
        store.map { change in
            switch change {
            case .putInstance: "putInstance"
            case .deleteInstance: "deleteInstance"
            case .putTimeline: "putTimeline"
            case .recordReload: "recordReload"
            case .pruneReloads: "pruneReloads"
            case .putRequest: "putRequest"
            case .deleteRequest: "deleteRequest"
            case .putStack: "putStack"
            case .deleteStack: "deleteStack"
            case .putDonation: "putDonation"
            case .pruneDonations: "pruneDonations"
            case .deleteDonations: "deleteDonations"
            case .appendDecision: "appendDecision"
            case .pruneDecisions: "pruneDecisions"
            case .updateRelevance: "updateRelevance"
            case .putVisibility: "putVisibility"
            case .putFreshRelevance: "putFreshRelevance"
            }
        }
    }

    var decisions: [RotationDecision] {
        events.compactMap { if case .rotation(let decision, _) = $0 { decision } else { nil } }
    }
}
