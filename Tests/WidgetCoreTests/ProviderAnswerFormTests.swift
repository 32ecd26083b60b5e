import Foundation
import Testing
import WidgetCore
import WidgetProtocol

/// The answer forms of WidgetWire, which the SDK prints, are what the daemon's reader takes:
/// through the scan and through `JSONDecoder` alike.
@Suite struct ProviderAnswerFormTests {
    static let start = Date(timeIntervalSince1970: 1_767_600_000)

    static let timeline = WireTimeline(
        entries: [
            WireEntry(date: start, content: .object(["n": .integer(1), "text": .string("a/b \"c\"")])),
            WireEntry(
                date: start.addingTimeInterval(3600.5), content: .object(["n": .number(2.5)]),
                relevance: TimelineEntryRelevance(score: 0.8, duration: 600),
                actions: [WireAction(id: "done", title: "Done", intent: .init(type: "Toggle", parameters: .object(["on": .bool(true)])))]),
        ],
        policy: .after(start.addingTimeInterval(7200)))

    @Test func aBatchAnswerReadsAsTheDaemonReadsIt() throws {
        let answer = WireTimelines([.timeline(Self.timeline), .error("no such city"), .timeline(WireTimeline(entries: [], policy: .never))])
        let data = try WidgetJSON.encoder.encode(answer)
        let read = try ProviderAnswer.timelines(from: data, count: 3)
        #expect(try ProviderAnswer.decodedTimelines(from: data, count: 3).map(Self.describe) == read.map(Self.describe))

        let first = try read[0].get()
        #expect(first.entries.map(\.date) == [Self.start, Self.start.addingTimeInterval(3600.5)])
        #expect(first.entries.map(\.content) == [.object(["n": .integer(1), "text": .string("a/b \"c\"")]), .object(["n": .number(2.5)])])
        // The Float 0.8 is written as 0.8, not as its Double value 0.800000011920929.
        #expect(first.entries.last?.relevance == EntryRelevance(score: 0.8, duration: 600))
        #expect(first.entries.last?.actions == [WidgetAction(id: "done", title: "Done", intent: ActionIntent(type: "Toggle", parameters: ["on": .bool(true)]))])
        #expect(first.policy == .after(Self.start.addingTimeInterval(7200)))
        #expect(throws: ProviderAnswer.Fault("the provider reported: no such city")) { try read[1].get() }
        #expect(try read[2].get().policy == .never)
    }

    @Test func oneTimelineServesEveryInstance() throws {
        let data = try WidgetJSON.encoder.encode(Self.timeline)
        let read = try ProviderAnswer.timelines(from: data, count: 2)
        #expect(read.count == 2)
        #expect(try read.map { try $0.get().entries.count } == [2, 2])
    }

    private static func describe(_ result: Result<WidgetTimeline, ProviderAnswer.Fault>) -> String {
        switch result {
        case .success(let timeline):
            "\(timeline.entries.map { "\($0.date.timeIntervalSince1970) \($0.contentJSON) \(String(describing: $0.relevance))" }) \(timeline.policy)"
        case .failure(let fault): "fault \(fault.reason)"
        }
    }
}
