import Foundation

extension DaemonState {
    /// The wall clock went back from `old` to `now` (docs/overview.md). Due dates are wall
    /// instants and stay; the core's rules hold back nothing by the size of the step
    /// (`ReloadScheduler.clockSteppedBack`, `StackState.clampDates`). Each instance's next entry
    /// change is recomputed, and the entry changes to tell at once are returned: those whose
    /// entry shown at `now` is not the one shown at `old`. Nothing that ran is run again.
    public mutating func clockSteppedBack(from old: Date, to now: Date) -> [StateEvent] {
        scheduler.clockSteppedBack(from: old, to: now, in: &instances)
        var events: [StateEvent] = []
        for record in instances.inPlacementOrder {
            guard let timeline = record.timeline?.timeline else { continue }
            scheduler.setNextEntryChange(record.id, timeline.nextEntryDate(after: now), in: instances)
            guard let current = timeline.currentIndex(at: now), current != timeline.currentIndex(at: old) else { continue }
            events.append(.entryChange(record.id, date: now, entry: timeline.entries[current]))
        }
        // Dwell, hold and cap rechecks were computed from dates after `now`.
        stacks.clearRechecks()
        dirtyStacks.formUnion(stacks.names)
        return events
    }

    /// The system time zone changed. It does not step the wall clock, so no due date moves;
    /// what moves is local time of day and the weekend, which donation affinity reads: each
    /// donation's local time is read again and every stack evaluated again.
    public mutating func setTimeZone(_ zone: TimeZone) {
        guard zone != calendar.timeZone else { return }
        calendar.timeZone = zone
        donations.retime(calendar)
        refreshAllMatches()
        stacks.clearRechecks()
        dirtyStacks.formUnion(stacks.names)
    }
}
