import Foundation
import Testing
@testable import WidgetCore
@testable import WidgetTestSupport

/// Actions in the pure core: entries carry them through every reader and the compact storage;
/// `perform` is checked against the entry shown; the instance is invalidated until the reload
/// after the action ends; that reload is exempt up to the limit per minute.
@Suite("Actions")
struct ActionStateTests {
    static let descriptors = #"""
        [{"kind":"k.todo","supportedFamilies":["systemSmall"],"provider":{"exec":["/bin/true"]},
          "actions":[{"type":"ToggleTask","parameters":[{"name":"task","type":"string"},
                                                        {"name":"count","type":"integer","min":1,"default":1}]}]},
         {"kind":"k.push","supportedFamilies":["systemSmall"]}]
        """#

    static func toggle(_ id: String = "done", task: String = "42") -> WidgetAction {
        WidgetAction(id: id, title: "Done", intent: ActionIntent(type: "ToggleTask", parameters: ["task": .string(task)]))
    }

    static func timeline(actions: [WidgetAction], at offsets: [TimeInterval] = [0]) -> WidgetTimeline {
        WidgetTimeline(
            entries: offsets.map { WidgetEntry(date: t0 + $0, content: .integer(Int64($0)), actions: actions) },
            policy: .never)
    }

    /// A state with one `k.todo` instance whose first reload answered `timeline`.
    func installed(_ timeline: WidgetTimeline, settings: DaemonSettings = DaemonSettings()) throws -> (DaemonState, InstanceID) {
        var state = makeState(Self.descriptors, settings: settings)
        let (id, _) = try state.added("k.todo")
        let launch = try #require(state.takeDue(at: t0).launches.first)
        state.apply(state.planLaunchResult(launch, outcomes: [.timeline(timeline)], at: t0))
        return (state, id)
    }

    // MARK: Entries

    @Test func actionsGoThroughTheStorageAndCompareAsPartOfTheEntry() throws {
        let with = Self.timeline(actions: [Self.toggle(), Self.toggle("undo", task: "é \"q\"")], at: [0, 60])
        let mixed = WidgetTimeline(
            entries: [
                WidgetEntry(date: t0, content: .string("a"), relevance: EntryRelevance(score: 1)),
                WidgetEntry(date: t0 + 60, content: .string("b"), actions: [Self.toggle()]),
                WidgetEntry(date: t0 + 120, content: .string("c")),
            ],
            policy: .atEnd)
        #expect(with.entries[1].actions.map(\.id) == ["done", "undo"])
        #expect(with.entries[1].actions[1].intent.parameters["task"] == .string("é \"q\""))
        #expect(mixed.entries.map(\.actions.count) == [0, 1, 0])
        #expect(mixed.entries.map(\.contentJSON) == [#""a""#, #""b""#, #""c""#])
        #expect(mixed.entries[0].relevance?.score == 1)
        var policyChanged = mixed
        policyChanged.policy = .never
        #expect(policyChanged.entries[1].actions == [Self.toggle()], "a policy change keeps the actions")
        #expect(with != Self.timeline(actions: [Self.toggle()], at: [0, 60]))
        #expect(with == Self.timeline(actions: [Self.toggle(), Self.toggle("undo", task: "é \"q\"")], at: [0, 60]))
        #expect(Set([with, with]).count == 1)
        #expect(Self.timeline(actions: []) != Self.timeline(actions: [Self.toggle()]))

        // Through JSON and back, and as the store rebuilds it (TimelineBuilder).
        let json = try WidgetJSON.encoder.encode(mixed)
        #expect(try WidgetJSON.decoder.decode(WidgetTimeline.self, from: json) == mixed)
        #expect(!String(decoding: try WidgetJSON.encoder.encode(Self.timeline(actions: [])), as: UTF8.self).contains("actions"))
        var builder = TimelineBuilder()
        for entry in mixed.entries {
            let text = entry.actions.isEmpty ? "" : String(decoding: try WidgetJSON.encoder.encode(entry.actions), as: UTF8.self)
            var content = entry.contentJSON
            var actions = text
            content.withUTF8 { contentBytes in
                actions.withUTF8 { builder.append(date: entry.date, contentJSON: UnsafeRawBufferPointer(contentBytes), relevance: entry.relevance, actionsJSON: UnsafeRawBufferPointer($0)) }
            }
        }
        #expect(builder.make(policy: .atEnd) == mixed)
    }

    @Test func theDecoderRefusesBadActions() {
        func decode(_ actions: String) -> Bool {
            let text = #"{"entries":[{"date":"2026-01-05T08:00:00Z","content":1,"actions":\#(actions)}]}"#
            return (try? WidgetJSON.decoder.decode(WidgetTimeline.self, from: Data(text.utf8))) != nil
        }
        #expect(decode(#"[{"id":"a","title":"A","intent":{"type":"T"}}]"#))
        #expect(decode("null"))
        #expect(decode("[]"))
        #expect(!decode(#"[{"id":"","title":"A","intent":{"type":"T"}}]"#))
        #expect(!decode(#"[{"id":"a","intent":{"type":"T"}}]"#))
        #expect(!decode(#"[{"id":"a","title":"A","intent":{"type":""}}]"#))
        #expect(!decode(#"[{"id":"a","title":"A","intent":{"type":"T","parameters":[1]}}]"#))
        #expect(!decode(#"[{"id":"a","title":"A","intent":{"type":"T"}},{"id":"a","title":"B","intent":{"type":"T"}}]"#))
        #expect(!decode(#"{"id":"a"}"#))
    }

    @Test func descriptorsDeclareActionTypesByTheIntentSchemasRules() throws {
        let state = makeState(Self.descriptors)
        let descriptor = try #require(state.descriptors["k.todo"])
        #expect(descriptor.actions.map(\.type) == ["ToggleTask"])
        #expect(descriptor.problem(with: Self.toggle(), family: .systemSmall) == nil)
        let wrongType = WidgetAction(id: "x", title: "X", intent: ActionIntent(type: "Other"))
        #expect(descriptor.problem(with: wrongType, family: .systemSmall)?.contains("'Other' is not declared") == true)
        let badCount = WidgetAction(id: "x", title: "X", intent: ActionIntent(type: "ToggleTask", parameters: ["count": .integer(0)]))
        #expect(descriptor.problem(with: badCount, family: .systemSmall)?.hasPrefix("intent.parameters.count") == true)
        let unknown = WidgetAction(id: "x", title: "X", intent: ActionIntent(type: "ToggleTask", parameters: ["nope": .bool(true)]))
        #expect(descriptor.problem(with: unknown, family: .systemSmall)?.contains("unknown parameter") == true)

        func problem(_ actions: String) -> String? {
            let text = #"{"kind":"k.x","supportedFamilies":["systemSmall"],"actions":\#(actions)}"#
            do {
                _ = try DescriptorParser.parse(Data(text.utf8), path: "/x.json")
                return nil
            } catch {
                return error.reason
            }
        }
        #expect(problem(#"[{"type":"T","parameters":[{"name":"a","type":"string"}]}]"#) == nil)
        #expect(problem(#"{"type":"T"}"#)?.contains("actions") == true)
        #expect(problem(#"[{"type":"T"},{"type":"T"}]"#)?.contains("actions[1].type: 'T' is declared twice") == true)
        #expect(problem(#"[{"type":"T","parameters":[{"name":"a","type":"colour"}]}]"#)?.contains("actions[0].parameters[0].type") == true)
        #expect(problem(#"[{"type":"T","supportedCombinations":[]}]"#)?.contains("actions[0].supportedCombinations") == true)
    }

    // MARK: Perform

    @Test func performIsCheckedAgainstTheEntryShownNow() throws {
        let second = WidgetAction(id: "later", title: "Later", intent: ActionIntent(type: "ToggleTask"))
        let timeline = WidgetTimeline(
            entries: [
                WidgetEntry(date: t0, content: .integer(0), actions: [Self.toggle()]),
                WidgetEntry(date: t0 + 600, content: .integer(1), actions: [second]),
            ],
            policy: .never)
        let (state, id) = try installed(timeline)
        let ask = try state.performAsk(instance: id, action: "done", at: t0 + 10)
        #expect(ask.intent == ActionIntent(type: "ToggleTask", parameters: ["task": .string("42"), "count": .integer(1)]))
        #expect(throws: StateError.self) { try state.performAsk(instance: id, action: "later", at: t0 + 10) }
        #expect(try state.performAsk(instance: id, action: "later", at: t0 + 600).action == "later")
        #expect(throws: StateError.self) { try state.performAsk(instance: id, action: "done", at: t0 + 600) }
        #expect(throws: StateError.unknownInstance("nope")) { try state.performAsk(instance: "nope", action: "done", at: t0) }
    }

    @Test func aTimelineWithUndeclaredActionsIsRefusedAsAWhole() throws {
        let undeclared = WidgetAction(id: "x", title: "X", intent: ActionIntent(type: "Other"))
        let (state, id) = try installed(Self.timeline(actions: [undeclared]))
        // From a provider: a failed reload, nothing installed.
        #expect(state.instances[id]?.timeline == nil)
        #expect(state.instances[id]?.lastError?.contains("intent.type 'Other' is not declared") == true)
        // Pushed: refused.
        var pushed = state
        #expect(throws: StateError.self) { try pushed.planPush(id, Self.timeline(actions: [undeclared]), at: t0 + 1) }
        // A push-only kind declares none, so its entries cannot carry any.
        let (other, _) = try pushed.added("k.push")
        #expect(throws: StateError.self) { try pushed.planPush(other, Self.timeline(actions: [Self.toggle()]), at: t0 + 1) }
        let plain = try pushed.planPush(other, Self.timeline(actions: []), at: t0 + 1)
        #expect(!plain.store.isEmpty)
    }

    @Test func theInvalidationLastsFromThePerformUntilTheReloadAfterItEnds() throws {
        var (state, id) = try installed(Self.timeline(actions: [Self.toggle()]))
        let ask = try state.performAsk(instance: id, action: "done", at: t0 + 60)
        let invalidate = state.planInvalidate(ask, at: t0 + 60)
        #expect(invalidate.store.isEmpty, "nothing is stored before the provider has performed")
        #expect(invalidate.events == [.invalidated(id, action: "done", date: t0 + 60)])
        state.apply(invalidate)
        #expect(state.instances[id]?.invalidation?.action == "done")

        let exempt = state.takeExemptActionReload(id, at: t0 + 61)
        #expect(exempt)
        let reload = state.planActionReload(ask, exempt: true, at: t0 + 61)
        #expect(reload.storedKinds == ["putRequest"])
        state.apply(reload)
        #expect(state.instances[id]?.request?.reason == .action)
        #expect(state.instances[id]?.invalidation != nil)

        // The launch that carries out that request ends it.
        let work = state.takeDue(at: t0 + 61)
        let launch = try #require(work.launches.first)
        #expect(launch.reasons == [.action])
        #expect(state.instances[id]?.invalidation != nil, "still invalidated while the reload runs")
        state.apply(state.planLaunchResult(launch, outcomes: [.timeline(Self.timeline(actions: [Self.toggle()], at: [61]))], at: t0 + 62))
        #expect(state.instances[id]?.invalidation == nil)
        #expect(state.instances[id]?.request == nil)
    }

    @Test func aFailedReloadOrAPushEndsItAndAnEarlierLaunchDoesNot() throws {
        var (state, id) = try installed(Self.timeline(actions: [Self.toggle()]))
        // A reload already running when the action is performed answers the older question.
        state.apply(state.planReload([id], reason: .userInitiated, at: t0 + 10))
        let earlier = try #require(state.takeDue(at: t0 + 10).launches.first)
        let ask = try state.performAsk(instance: id, action: "done", at: t0 + 11)
        state.apply(state.planInvalidate(ask, at: t0 + 11))
        state.apply(state.planActionReload(ask, exempt: true, at: t0 + 12))
        state.apply(state.planLaunchResult(earlier, outcomes: [.timeline(Self.timeline(actions: [Self.toggle()]))], at: t0 + 13))
        #expect(state.instances[id]?.invalidation != nil)
        // Its own reload fails: the invalidation ends with it (the previous timeline stays).
        let own = try #require(state.takeDue(at: t0 + 13).launches.first)
        state.apply(state.planLaunchResult(own, outcomes: [.failed("boom", cause: "exit")], at: t0 + 14))
        #expect(state.instances[id]?.invalidation == nil)

        let again = try state.performAsk(instance: id, action: "done", at: t0 + 20)
        state.apply(state.planInvalidate(again, at: t0 + 20))
        state.apply(try state.planPush(id, Self.timeline(actions: [Self.toggle()], at: [20]), at: t0 + 21))
        #expect(state.instances[id]?.invalidation == nil, "new content from a push replaces what was out of date")

        // A provider that could not perform: nothing to wait for.
        let failed = try state.performAsk(instance: id, action: "done", at: t0 + 30)
        state.apply(state.planInvalidate(failed, at: t0 + 30))
        let performFailed = state.planPerformFailed(failed, error: "exit 3", at: t0 + 30)
        // Whoever was told of the invalidation is told the shown entry again.
        let shown = state.instances[id]?.timeline?.timeline.currentEntry(at: t0 + 30)
        #expect(performFailed.events == [.entryChange(id, date: t0 + 30, entry: shown)])
        state.apply(performFailed)
        #expect(state.instances[id]?.invalidation == nil)
        // A failure of an earlier perform leaves a later perform's reload mark alone.
        let later = try state.performAsk(instance: id, action: "done", at: t0 + 31)
        state.apply(state.planInvalidate(later, at: t0 + 31))
        state.apply(state.planActionReload(later, exempt: true, at: t0 + 31))
        let stale = state.planPerformFailed(failed, error: "exit 3", at: t0 + 32)
        #expect(stale.events.isEmpty)
        state.apply(stale)
        #expect(state.instances[id]?.invalidation != nil)
    }

    @Test func exemptReloadsAreLimitedPerMinute() throws {
        var settings = DaemonSettings()
        settings.actionReloadsPerMinute = 2
        var (state, id) = try installed(Self.timeline(actions: [Self.toggle()]), settings: settings)
        var taken: [Bool] = []
        for offset in [1, 2, 3, 60, 61.5] { taken.append(state.takeExemptActionReload(id, at: t0 + offset)) }
        #expect(taken == [true, true, false, false, true])
        let ask = try state.performAsk(instance: id, action: "done", at: t0 + 62)
        let budgeted = state.planActionReload(ask, exempt: false, at: t0 + 62)
        state.apply(budgeted)
        #expect(state.instances[id]?.request?.reason == .requested, "beyond the limit the reload is budgeted, not dropped")
        #expect(ReloadReason.action.isExempt)
    }

    /// The per-minute and per-hour windows are the instance's record's, so they go with it
    /// (`InstanceLifecycleTests` checks that nothing of a removed instance stays).
    @Test func rateWindowsLiveInTheRecord() throws {
        var (state, id) = try installed(Self.timeline(actions: [Self.toggle()]))
        let exempt = state.takeExemptActionReload(id, at: t0 + 1)
        #expect(exempt)
        _ = try state.relevanceAsks(kinds: [state.instances[id]!.kind], at: t0 + 1)
        #expect(state.instances[id]?.actionReloads == [t0 + 1])
        #expect(state.instances[id]?.relevanceAsks == [t0 + 1])
        state.apply(try state.planRemove(id, at: t0 + 2))
        #expect(state.instances[id] == nil)
        let afterRemoval = state.takeExemptActionReload(id, at: t0 + 3)
        #expect(afterRemoval, "a removed instance's reload is not counted, and not refused")
    }
}
