import Foundation
@testable import WidgetTestSupport
#if canImport(FoundationXML)
    import FoundationXML
#endif
import Testing
import WidgetPictures
@testable import WidgetCore

/// `DaemonState.simulate`: a dry run on a copy of the state, on the virtual clock's steps,
/// and its picture.
@Suite struct SimulationTests {
    /// A stack "home" of two push-only instances: A is the more relevant for the first four
    /// hours, B from then on.
    static func rotatingStack() throws -> (DaemonState, a: InstanceID, b: InstanceID) {
        var state = makeState()
        state.apply(try state.planCreateStack("home", smartRotate: true, at: t0, reserved: LimitReservations()))
        let a = try state.added("k.push", stack: "home").0
        let b = try state.added("k.push", stack: "home").0
        state.apply(try state.planPush(a, DaemonState.timeline([0, 4 * 3600], scores: [1, 0.1]), at: t0))
        state.apply(try state.planPush(b, DaemonState.timeline([0, 4 * 3600], scores: [0.1, 1]), at: t0))
        return (state, a, b)
    }

    @Test func rotationsComeWhenTheStateWouldRotate() throws {
        let (state, a, b) = try Self.rotatingStack()
        #expect(state.stacks["home"]?.top == a)
        let report = state.simulate(from: t0, to: t0 + 24 * 3600)
        #expect(report.rotations.map(\.date) == [t0 + 4 * 3600])
        #expect(report.rotations.first?.from == a)
        #expect(report.rotations.first?.to == b)
        #expect(report.rotations.first?.reason == .betterCandidate)
        #expect(report.counts.rotations == 1)
        #expect(Set(report.entryChanges) == [
            SimulatedEntryChange(date: t0 + 4 * 3600, instance: a), SimulatedEntryChange(date: t0 + 4 * 3600, instance: b),
        ])
        #expect(report.stacks.map(\.name) == ["home"])
        #expect(report.stacks.first?.top == a)
        #expect(report.reloads.isEmpty)
        let curveA = try #require(report.relevance.first { $0.instance == a })
        #expect(curveA.at == [0, 4 * 3600])
        #expect(curveA.value == [1, 0.1])
        #expect(!report.truncated)
    }

    /// The run happens on a copy: the state, its schedule and its stacks are as before.
    @Test func simulatingChangesNothing() throws {
        let (state, _, _) = try Self.rotatingStack()
        var withReload = state
        _ = try withReload.added("k.clock", stack: "home")
        let before = withReload
        let report = withReload.simulate(from: t0, to: t0 + 48 * 3600)
        #expect(report.counts.rotations >= 1)
        #expect(withReload.stacks.stacks == before.stacks.stacks)
        #expect(withReload.scheduler.pendingReloads(in: withReload.instances) == before.scheduler.pendingReloads(in: before.instances))
        #expect(withReload.nextWake == before.nextWake)
        #expect(withReload.instances.all.map(\.timeline?.receivedAt) == before.instances.all.map(\.timeline?.receivedAt))
    }

    /// A reload keeps the timeline held now, so its policy comes due again; the budget counts
    /// and defers those reloads as it would the provider's.
    @Test func reloadsAreClassedByTheBudget() throws {
        var settings = DaemonSettings()
        settings.dailyReloadLimit = 2
        settings.minimumSpacing = 600
        var state = makeState(settings: settings)
        let id = try state.added("k.clock").0
        state.apply(try state.planPush(id, DaemonState.timeline([0, 3600], policy: .after(t0 + 60)), at: t0))
        let report = state.simulate(from: t0, to: t0 + 26 * 3600)
        let initial = try #require(report.reloads.first)
        #expect(initial.date == t0)
        #expect(initial.reason == .initial)
        #expect(initial.budget == .exempt)
        let budgeted = report.reloads.filter { $0.budget == .budgeted }
        #expect(budgeted.prefix(2).map(\.date) == [t0 + 60, t0 + 660])
        let deferred = try #require(report.reloads.first { $0.budget == .deferred })
        #expect(deferred.wanted == t0 + 1260)
        #expect(deferred.date == t0 + 60 + 86400)
        #expect(report.counts.deferred >= 1)
        #expect(report.counts.exempt == 1)
    }

    @Test func listsAreCutAtTheLimitAndCountedInFull() throws {
        let (state, _, _) = try Self.rotatingStack()
        let report = state.simulate(from: t0, to: t0 + 24 * 3600, limit: 1)
        #expect(report.entryChanges.count == 1)
        #expect(report.counts.entryChanges == 2)
        #expect(report.truncated)
    }

    /// Donations are placed at their time of day on each day of the period.
    @Test func donationsArePlacedAtTheirTimeOfDay() throws {
        var state = makeState()
        state.apply(try state.planCreateStack("home", smartRotate: true, at: t0, reserved: LimitReservations()))
        let id = try state.added("k.push", configuration: ["city": .string("Paris")], stack: "home").0
        let donated = t0 - 86400 + 1800  // 08:30 the day before
        state.apply(try state.planDonate(DonateParamsForTest.paris(at: donated), at: t0, reserved: LimitReservations()).plan)
        let report = state.simulate(from: t0, to: t0 + 48 * 3600)
        #expect(report.donations.map(\.date) == [t0 + 1800, t0 + 86400 + 1800])
        #expect(report.donations.allSatisfy { $0.instance == id && $0.stack == "home" && $0.donated == donated })
    }

    @Test func reportRoundTripsAsJSON() throws {
        let (state, _, _) = try Self.rotatingStack()
        let report = state.simulate(from: t0, to: t0 + 24 * 3600)
        let data = try WidgetJSON.encoder.encode(report)
        #expect(try WidgetJSON.decoder.decode(SimulationReport.self, from: data) == report)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let rotation = try #require((object["rotations"] as? [[String: Any]])?.first)
        #expect(Set(rotation.keys).isSuperset(of: ["date", "stack", "from", "to", "reason"]))
        // A held-back decision keeps the key, as null.
        var held = report
        held.rotations[0].to = nil
        let heldObject = try JSONSerialization.jsonObject(with: try WidgetJSON.encoder.encode(held)) as? [String: Any]
        let heldRotation = try #require((heldObject?["rotations"] as? [[String: Any]])?.first)
        #expect(heldRotation["to"] is NSNull)
        #expect(try WidgetJSON.decoder.decode(SimulationReport.self, from: try WidgetJSON.encoder.encode(held)) == held)
    }

    /// An answer from a daemon that did not count failures or provider launches yet still reads.
    @Test func countsAddedLaterReadAsZero() throws {
        let older = #"{"rotations":3,"heldBack":1,"entryChanges":40,"budgeted":2,"exempt":1,"deferred":0}"#
        let counts = try WidgetJSON.decoder.decode(SimulationReport.Counts.self, from: Data(older.utf8))
        #expect(counts.rotations == 3 && counts.entryChanges == 40 && counts.exempt == 1)
        #expect(counts.failed == 0 && counts.providerLaunches == 0)
    }

    /// The picture is well-formed XML with a band per stack, the instances' labels and a legend.
    @Test func pictureIsWellFormed() throws {
        var (state, _, _) = try Self.rotatingStack()
        state.apply(try state.planCreateStack("work & <play>", smartRotate: false, at: t0, reserved: LimitReservations()))
        _ = try state.added("k.clock", stack: "work & <play>")
        let svg = SimulationPicture.svg(state.simulate(from: t0, to: t0 + 24 * 3600))
        let parser = XMLParser(data: Data(svg.utf8))
        let collector = ElementCollector()
        parser.delegate = collector
        #expect(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "")")
        #expect(collector.elements.first == "svg")
        #expect(collector.texts.contains("home"))
        #expect(collector.texts.contains("work & <play>"))
        #expect(collector.texts.contains("Legend"))
        #expect(collector.texts.contains("04:00"))
        #expect(collector.texts.contains("2026-01-06"))
        #expect(collector.elements.filter { $0 == "polyline" }.count >= 2)
        // The exempt initial reload of the clock instance.
        #expect(svg.contains("class=\"exempt\" cx="))
    }
}

enum DonateParamsForTest {
    static func paris(at date: Date) -> Donation {
        Donation(intentType: "Clock", parameters: ["city": .string("Paris")], date: date)
    }
}

/// Element names and text nodes of a document, in order.
final class ElementCollector: NSObject, XMLParserDelegate, @unchecked Sendable {
    var elements: [String] = []
    private var raw: [String] = []
    var texts: [String] { raw.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) } }

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
        elements.append(name)
        raw.append("")
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        guard !raw.isEmpty else { return }
        raw[raw.count - 1] += string
    }
}
