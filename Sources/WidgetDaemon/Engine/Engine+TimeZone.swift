import Foundation
import WidgetCore

extension Engine {
    /// Re-reads the system time zone when what it comes from changed (`TimeZoneWatcher` rings
    /// the loop when /etc/localtime is replaced; without a watcher every tick checks). A zone change does not
    /// step CLOCK_REALTIME, so no due date moves; what moves is local time of day and the
    /// weekend, which donation affinity reads: each donation's local time is read again and
    /// every stack re-evaluated.
    func refreshTimeZone() {
        let identity = SystemTimeZone.identity()
        guard identity != timeZoneIdentity else { return }
        timeZoneIdentity = identity
        let zone = SystemTimeZone.current()
        guard zone != calendar.timeZone else { return }
        logger.notice(
            "time zone changed; recomputing local times",
            metadata: ["from": "\(calendar.timeZone.identifier)", "to": "\(zone.identifier)"])
        calendar.timeZone = zone
        donations = donations.map { LocalDonation($0.donation, calendar: calendar) }
        matchedDonationCache.removeAll()
        stackRecheck.removeAll()
        dirtyStacks.formUnion(stacks.keys)
    }

    /// Whether `TimeZoneWatcher` runs, so ticks need not look at the zone themselves.
    func setTimeZoneWatched(_ watched: Bool) {
        timeZoneWatched = watched
    }
}
