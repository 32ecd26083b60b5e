import Foundation
import Testing
import WidgetCore
import WidgetProtocol

/// Event lines written without JSONEncoder are byte for byte what `WidgetJSON.encoder` writes.
@Suite struct EventJSONTests {
    static let date = Date(timeIntervalSince1970: 1_767_600_000.255)

    func check(_ event: StateEvent) throws {
        let notification = EventNotification(WidgetEvent(event))
        let direct = try #require(notification.directJSON())
        #expect(String(decoding: direct, as: UTF8.self) == String(decoding: try WidgetJSON.encoder.encode(notification), as: UTF8.self))
    }

    @Test func reloadsAndFailures() throws {
        for instances in [[], ["415f970d"], DirectJSONTests.awkward] {
            for kind in DirectJSONTests.awkward {
                try check(.reload(kind: kind, instances: instances, date: Self.date))
                try check(.reloadFailed(kind: kind, instances: instances, error: DirectJSONTests.awkward[2], date: Self.date))
            }
        }
    }

    @Test func stacksAndRotations() throws {
        var state = StackState(name: "home \"x\"", instances: ["a", "b"])
        try check(.stack(state, date: Self.date))
        state.swipe(to: "b", at: Self.date, hold: 3600)
        try check(.stack(state, date: Self.date))
        try check(.stackRemoved(DirectJSONTests.awkward[3], date: Self.date))
        let candidate = RankedCandidate(
            instance: "a", score: 0.5, relevanceSince: Self.date, relevanceUntil: nil, relevance: 1e-7, affinity: 2, donations: ["d"],
            eligible: true, rank: 1.0 / 3)
        let decision = RotationDecision(
            date: Self.date, stack: "home", from: "b", to: "a", candidate: "a", reason: .betterCandidate, candidates: [candidate])
        try check(.rotation(decision, state))
    }

    @Test func invalidations() throws {
        for action in DirectJSONTests.awkward {
            try check(.invalidated("415f970d", action: action, date: Self.date))
        }
    }

    @Test func aStackShownWithItsTopInvalidated() throws {
        var info = StackInfo(StackState(name: "home", instances: ["a"]))
        info.invalidated = true
        var out = JSONText()
        info.writeJSON(to: &out)
        #expect(String(decoding: out.bytes, as: UTF8.self) == String(decoding: try WidgetJSON.encoder.encode(info), as: UTF8.self))
    }

    /// Every type of event has a case above or below: a new one must be written here or left
    /// to the encoder, never written without its fields.
    @Test func everyEventTypeIsCovered() {
        let covered: Set<WidgetEvent.Kind> = [.entryChange, .invalidated, .reload, .reloadFailed, .rotation, .stack, .widgets]
        #expect(Set(WidgetEvent.Kind.allCases) == covered)
        let read = DescriptorChanges(added: ["a"], problems: [DescriptorProblem(path: "/w/b.json", reason: "bad")], kinds: 1)
        #expect(EventNotification(WidgetEvent(type: .widgets, date: Self.date, widgets: read)).directJSON() == nil)
    }

    /// What stays with the encoder: an entry's content, a number that is not finite.
    @Test func entryChangesAreLeftToTheEncoder() {
        let entry = WidgetEntry(date: Self.date, content: .object(["a": .integer(1)]))
        #expect(EventNotification(WidgetEvent(.entryChange("a", date: Self.date, entry: entry))).directJSON() == nil)
        let candidate = RankedCandidate(
            instance: "a", score: .nan, relevanceSince: nil, relevanceUntil: nil, relevance: 0, affinity: 0, donations: [],
            eligible: true, rank: 0)
        let decision = RotationDecision(
            date: Self.date, stack: "s", from: nil, to: "a", candidate: "a", reason: .betterCandidate, candidates: [candidate])
        #expect(EventNotification(WidgetEvent(.rotation(decision, StackState(name: "s")))).directJSON() == nil)
    }
}
