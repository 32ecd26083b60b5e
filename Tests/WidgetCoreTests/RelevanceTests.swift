import Foundation
import Testing
import WidgetCore
@testable import WidgetTestSupport

/// Relevance (docs/smart-stacks.md): the score in force, lapses, carry-over and scale invariance.
@Suite("Relevance")
struct RelevanceTests {
    func timeline(_ entries: [(TimeInterval, Double?, TimeInterval)]) -> WidgetTimeline {
        WidgetTimeline(
            entries: entries.map { offset, score, duration in
                WidgetEntry(date: t0 + offset, content: .null, relevance: score.map { EntryRelevance(score: $0, duration: duration) })
            },
            policy: .never)
    }

    @Test func durationLapsesAtDatePlusDuration() {
        var history = RelevanceHistory()
        history.install(timeline([(0, 5, 600)]), at: t0)
        #expect(history.current(at: t0 + 599)?.score == 5)
        #expect(history.current(at: t0 + 599)?.until == t0 + 600)
        #expect(history.current(at: t0 + 600) == nil)
        #expect(history.nextChange(after: t0) == t0 + 600)
    }

    @Test func zeroDurationHoldsUntilTheNextRelevanceAndBareEntriesChangeNothing() {
        var history = RelevanceHistory()
        // 0: score 3 (until next); 60: no relevance; 120: score 7.
        history.install(timeline([(0, 3, 0), (60, nil, 0), (120, 7, 0)]), at: t0)
        #expect(history.current(at: t0 + 90)?.score == 3)
        #expect(history.current(at: t0 + 90)?.since == t0)
        #expect(history.current(at: t0 + 5000)?.score == 7)
        #expect(history.nextChange(after: t0 + 90) == t0 + 120)
    }

    @Test func aLapsedScoreStaysLapsedUntilAnotherRelevance() {
        var history = RelevanceHistory()
        history.install(timeline([(0, 3, 30), (60, nil, 0), (120, 4, 0)]), at: t0)
        #expect(history.current(at: t0 + 90) == nil)
        #expect(history.current(at: t0 + 120)?.score == 4)
    }

    @Test func aNewTimelineForgetsTheOldFutureButKeepsWhatWasCurrent() {
        var history = RelevanceHistory()
        history.install(timeline([(0, 3, 0), (600, 9, 0)]), at: t0)
        // Reloaded at t0+60 with entries that carry no relevance: the 3 goes on, the 9 never happened.
        history.install(timeline([(60, nil, 0)]), at: t0 + 60)
        #expect(history.current(at: t0 + 700)?.score == 3)
        #expect(history.samples.map(\.score) == [3])
    }

    @Test func relativeRelevanceIsInvariantToEachWidgetsScale() {
        var small = RelevanceHistory()
        var large = RelevanceHistory()
        small.install(timeline([(0, 1, 0), (60, 2, 0), (120, 4, 0), (180, 3, 0)]), at: t0)
        large.install(timeline([(0, 1000, 0), (60, 2000, 0), (120, 4000, 0), (180, 3000, 0)]), at: t0)
        for offset in [0.0, 60, 120, 180, 240] {
            #expect(small.relative(at: t0 + offset, window: 86400) == large.relative(at: t0 + offset, window: 86400))
        }
        #expect(small.relative(at: t0 + 200, window: 86400) == 0.75)
    }

    @Test func nonPositiveScoresMakeNoRelevance() {
        var history = RelevanceHistory()
        history.install(timeline([(0, 5, 0), (60, 0, 0), (120, -2, 0)]), at: t0)
        #expect(history.relative(at: t0 + 60, window: 86400) == 0)
        #expect(history.relative(at: t0 + 130, window: 86400) == 0)
    }

    @Test func oldScoresLeaveTheWindowButTheOneInForceStays() {
        var history = RelevanceHistory()
        history.install(timeline([(0, 10, 0), (86400 * 40, 2, 0)]), at: t0)
        let now = t0 + 86400 * 41
        // Within 30 days only the 2 counts: it is its own best.
        #expect(history.relative(at: now, window: 30 * 86400) == 1)
        history.prune(before: now - 30 * 86400, now: now)
        #expect(history.samples.map(\.score) == [2])
    }

    /// A reload whose timeline starts before an old score's date supersedes that score.
    @Test func aNewTimelineCoveringNowSupersedesLaterOldScores() {
        var history = RelevanceHistory()
        history.install(timeline([(50 * 60, 0, 0)]), at: t0)  // 0 from t0+50m
        history.install(timeline([(30 * 60, 5, 0)]), at: t0 + 60 * 60)  // at t0+60m: 5 from t0+30m
        #expect(history.current(at: t0 + 60 * 60)?.score == 5)
        // A new timeline that starts later leaves the score in force until it begins.
        history.install(timeline([(90 * 60, 7, 0)]), at: t0 + 70 * 60)
        #expect(history.current(at: t0 + 80 * 60)?.score == 5)
        #expect(history.current(at: t0 + 90 * 60)?.score == 7)
    }
}
