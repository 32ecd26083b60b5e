import Foundation

extension DaemonState {
    /// Each stacked instance's relative relevance from `start` to `end`, read at the instants
    /// it can change (`RelevanceHistory.nextChange`), so the step curve is exact and costs one
    /// point per change, not one per sampling interval.
    func relevanceCurves(from start: Date, to end: Date, maxPoints: Int = 2_000) -> [RelevanceCurve] {
        let window = settings.rotation.relevanceWindow
        var curves: [RelevanceCurve] = []
        var seen = Set<InstanceID>()
        for name in stacks.names {
            for id in stacks[name]?.instances ?? [] where seen.insert(id).inserted {
                guard let history = instances[id]?.relevance else { continue }
                var curve = RelevanceCurve(instance: id)
                var time = start
                while time <= end, curve.at.count < maxPoints {
                    let value = history.relative(at: time, window: window)
                    if curve.value.last != value {
                        curve.at.append(time.timeIntervalSince(start))
                        curve.value.append(value)
                    }
                    guard let next = history.nextChange(after: time, window: window) else { break }
                    time = next
                }
                curves.append(curve)
            }
        }
        return curves
    }

    /// For each stacked instance, its matched donations placed at their local time of day on
    /// each day of the period (weekday or weekend alike; affinity weighs the day type). Only
    /// donations that still count (within the affinity horizon at the end) are placed; one
    /// tick per instance and affinity slot.
    func donationTicks(from start: Date, to end: Date, limit: Int) -> [SimulatedDonation] {
        var days: [Date] = []
        var day = calendar.startOfDay(for: start)
        while day <= end {
            days.append(day)
            guard let next = calendar.date(byAdding: .day, value: 1, to: day), next > day else { break }
            day = next
        }
        var ticks: [SimulatedDonation] = []
        for name in stacks.names {
            for id in stacks[name]?.instances ?? [] {
                guard let matched = instances[id]?.matched, !matched.isEmpty else { continue }
                var slots = Set<Int>()
                for local in matched where end.timeIntervalSince(local.donation.date) <= affinity.horizon {
                    for day in days {
                        let date = day.addingTimeInterval(local.time.secondsOfDay)
                        guard date >= start, date <= end, date > local.donation.date else { continue }
                        guard slots.insert(Int(date.timeIntervalSince1970 / affinity.slot)).inserted else { continue }
                        guard ticks.count < limit else { return ticks }
                        ticks.append(SimulatedDonation(
                            date: date, stack: name, instance: id, donated: local.donation.date, id: local.donation.id))
                    }
                }
            }
        }
        return ticks.sorted { ($0.date, $0.stack, $0.instance) < ($1.date, $1.stack, $1.instance) }
    }
}
