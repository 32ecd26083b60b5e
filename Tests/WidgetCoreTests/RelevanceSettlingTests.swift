import Foundation
import Testing
import WidgetCore
@testable import WidgetTestSupport

/// Relevance history keeps only what ranking needs of earlier timelines (the score in force
/// and each window's best), and answers exactly as if it kept every sample.
@Suite("Relevance settling")
struct RelevanceSettlingTests {
    /// The history as it was before settling: every sample, superseded and expired ones removed.
    struct EverySample {
        var samples: [RelevanceSample] = []

        mutating func install(_ timeline: WidgetTimeline, at now: Date) {
            let from = timeline.entries.first.map(\.date).flatMap { $0 <= now ? $0 : nil }
            samples.removeAll { sample in sample.date > now || (from.map { sample.date >= $0 } ?? false) }
            samples += timeline.entries.compactMap { entry in
                entry.relevance.map { RelevanceSample(date: entry.date, score: $0.score, duration: $0.duration) }
            }
        }

        func current(at now: Date) -> RelevanceSample? { samples.last { $0.date <= now } }

        func relative(at now: Date, window: TimeInterval) -> Double {
            guard let current = current(at: now), current.score > 0,
                current.duration == 0 || now < current.date + current.duration
            else { return 0 }
            let best = samples.filter { $0.date > now - window || $0.date == current.date }.map(\.score).max()!
            return min(1, current.score / best)
        }
    }

    /// A provider reloaded every 1–6 hours with 1–8 entries from `now`, some without relevance.
    func randomTimeline(at now: Date, _ random: inout SplitMix64) -> WidgetTimeline {
        let count = 1 + Int(random.next() % 8)
        return WidgetTimeline(
            entries: (0..<count).map { index in
                let scored = random.next() % 5 != 0
                let score = Double(Int(random.next() % 120) - 10)
                let duration = random.next() % 2 == 0 ? 0 : Double(1 + random.next() % 4) * 1800
                return WidgetEntry(
                    date: now + Double(index) * 3600, content: .null,
                    relevance: scored ? EntryRelevance(score: score, duration: duration) : nil)
            }, policy: .atEnd)
    }

    @Test func sixtyDaysOfReloadsRankExactlyAsEverySampleWould() {
        var random = SplitMix64(seed: 42)
        var history = RelevanceHistory()
        var reference = EverySample()
        let window: TimeInterval = 7 * 86400
        var now = t0
        while now < t0 + 60 * 86400 {
            let timeline = randomTimeline(at: now, &random)
            history.install(timeline, at: now)
            history.prune(before: now - window, now: now)
            reference.install(timeline, at: now)
            let next = now + Double(1 + random.next() % 6) * 3600
            var probe = now
            while probe < next {
                #expect(history.relative(at: probe, window: window) == reference.relative(at: probe, window: window))
                #expect(history.current(at: probe)?.score == reference.current(at: probe).flatMap { sample in
                    sample.duration == 0 || probe < sample.date + sample.duration ? sample.score : nil
                })
                probe += 1234
            }
            now = next
        }
        // Bounded by how often the best score falls, not by the ~400 reloads: far below the
        // window's samples.
        #expect(history.settled.count < 40)
        #expect(reference.samples.filter { $0.date >= now - window }.count > 50)
    }

    @Test func earlierSamplesThatAreOutscoredLaterAreNotKept() {
        var history = RelevanceHistory()
        func single(_ offset: TimeInterval, _ score: Double) -> WidgetTimeline {
            WidgetTimeline(entries: [WidgetEntry(date: t0 + offset, content: .null, relevance: EntryRelevance(score: score))], policy: .atEnd)
        }
        history.install(single(0, 5), at: t0)
        history.install(single(60, 9), at: t0 + 60)
        history.install(single(120, 3), at: t0 + 120)
        history.install(single(180, 4), at: t0 + 180)  // 3 settles and goes: 4 is later and higher
        history.install(single(240, 1), at: t0 + 240)
        // 5 is outscored by 9 (later), 3 by 4; 9 and 4 can still be some window's best.
        #expect(history.settled.map(\.score) == [9, 4])
        #expect(history.timeline.map(\.score) == [1])
        #expect(history.relative(at: t0 + 300, window: 86400) == 1.0 / 9)
        // Once 9 has left the window, 4 is the best.
        #expect(history.relative(at: t0 + 60 + 86400 + 1, window: 86400) == 0.25)
    }

    @Test func theRowChangeTurnsTheOldSettledSamplesIntoTheNew() {
        var random = SplitMix64(seed: 7)
        var history = RelevanceHistory()
        var rows: [Date: RelevanceSample] = [:]
        var now = t0
        for _ in 0..<300 {
            let before = history
            history.install(randomTimeline(at: now, &random), at: now)
            history.prune(before: now - 2 * 86400, now: now)
            let change = history.settledChange(since: before)
            for date in change.removed { rows[date] = nil }
            for sample in change.added { rows[sample.date] = sample }
            #expect(rows.values.sorted { $0.date < $1.date } == history.settled)
            now += Double(1 + random.next() % 6) * 3600
        }
    }

    @Test func aHistoryRestoredFromRowsAndTheTimelineIsTheSame() {
        var random = SplitMix64(seed: 9)
        var history = RelevanceHistory()
        var now = t0
        var last = WidgetTimeline(entries: [], policy: .atEnd)
        for _ in 0..<50 {
            last = randomTimeline(at: now, &random)
            history.install(last, at: now)
            now += 7200
        }
        #expect(RelevanceHistory(settled: history.settled, timeline: last) == history)
    }
}
