import Foundation
import Testing
import WidgetCore
@testable import WidgetTestSupport

/// Timelines (docs/overview.md): sorting on arrival and which entry is current.
@Suite("Timeline entry selection")
struct TimelineTests {
    @Test func entriesAreSortedOnArrival() {
        let timeline = WidgetTimeline(
            entries: [entry(t0 + 120, "c"), entry(t0, "a"), entry(t0 + 60, "b")], policy: .atEnd)
        #expect(timeline.entries.map(\.date) == [t0, t0 + 60, t0 + 120])
        #expect(timeline.entries.compactMap(\.content.stringValue) == ["a", "b", "c"])
    }

    @Test func equalDatesKeepTheLaterInputEntry() {
        // "first" and "second" share a date; the later one in the input must win even though
        // it arrives after an entry with a later date.
        let timeline = WidgetTimeline(
            entries: [entry(t0 + 60, "first"), entry(t0 + 120, "x"), entry(t0 + 60, "second"), entry(t0, "y")],
            policy: .never)
        #expect(timeline.entries.count == 3)
        #expect(timeline.entries.compactMap(\.content.stringValue) == ["y", "second", "x"])
    }

    @Test func threeEqualDatesKeepTheLast() {
        let timeline = WidgetTimeline(entries: [entry(t0, "1"), entry(t0, "2"), entry(t0, "3")], policy: .atEnd)
        #expect(timeline.entries.count == 1)
        #expect(contentName(timeline.entries.first) == "3")
    }

    @Test func currentEntryIsTheGreatestDateNotAfterNow() {
        let timeline = WidgetTimeline(
            entries: [entry(t0, "a"), entry(t0 + 60, "b"), entry(t0 + 120, "c")], policy: .atEnd)
        #expect(contentName(timeline.currentEntry(at: t0)) == "a")
        #expect(contentName(timeline.currentEntry(at: t0 + 59.999)) == "a")
        // Exactly at an entry date that entry is current.
        #expect(contentName(timeline.currentEntry(at: t0 + 60)) == "b")
        #expect(contentName(timeline.currentEntry(at: t0 + 119)) == "b")
        #expect(contentName(timeline.currentEntry(at: t0 + 120)) == "c")
        #expect(contentName(timeline.currentEntry(at: t0 + 86_400)) == "c")
        #expect(timeline.currentIndex(at: t0 + 61) == 1)
    }

    @Test func allEntriesInTheFutureShowTheFirst() {
        let timeline = WidgetTimeline(entries: [entry(t0 + 300, "late"), entry(t0 + 100, "early")], policy: .atEnd)
        #expect(contentName(timeline.currentEntry(at: t0)) == "early")
        #expect(timeline.currentIndex(at: t0) == 0)
    }

    @Test func emptyTimelineHasNoCurrentEntry() {
        let timeline = WidgetTimeline(entries: [], policy: .atEnd)
        #expect(timeline.entries.isEmpty)
        #expect(timeline.currentEntry(at: t0) == nil)
        #expect(timeline.currentIndex(at: t0) == nil)
        #expect(timeline.nextEntryDate(after: t0) == nil)
    }

    @Test func nextEntryDateIsStrictlyAfterNow() {
        let timeline = WidgetTimeline(
            entries: [entry(t0, "a"), entry(t0 + 60, "b"), entry(t0 + 120, "c")], policy: .atEnd)
        // Before every entry: the first entry is shown now and the next change is its own date.
        #expect(timeline.nextEntryDate(after: t0 - 10) == t0)
        #expect(timeline.nextEntryDate(after: t0) == t0 + 60)
        #expect(timeline.nextEntryDate(after: t0 + 30) == t0 + 60)
        #expect(timeline.nextEntryDate(after: t0 + 60) == t0 + 120)
        #expect(timeline.nextEntryDate(after: t0 + 120) == nil)
        #expect(timeline.nextEntryDate(after: t0 + 1_000) == nil)
    }

    @Test func singleEntryTimeline() {
        let timeline = WidgetTimeline(entries: [entry(t0 + 10, "only")], policy: .atEnd)
        #expect(contentName(timeline.currentEntry(at: t0)) == "only")
        #expect(contentName(timeline.currentEntry(at: t0 + 20)) == "only")
        #expect(timeline.nextEntryDate(after: t0) == t0 + 10)
        #expect(timeline.nextEntryDate(after: t0 + 10) == nil)
    }
}
