import Foundation

/// The provider launches each caller (by uid) asked for in the last minute, for a limit per
/// minute on the launches any reader can cause (`preview`, `placeholder`, `options`). Holds at
/// most the limit's number of dates per caller, and forgets a caller a minute after its last.
public struct CallerLaunchWindow: Sendable {
    public static let length: TimeInterval = 60

    private var dates: [UInt32: [Date]] = [:]

    public init() {}

    /// Records a launch for `uid` at `now` and answers true when fewer than `limit` were
    /// recorded for it in the minute before; answers false (recording nothing) otherwise.
    public mutating func admit(_ uid: UInt32, limit: Int, at now: Date) -> Bool {
        if dates.count > 64 { forgetIdle(at: now) }
        // A date after `now` means the clock was set back: those launches are forgotten.
        var recent = (dates[uid] ?? []).filter { $0 > now - Self.length && $0 <= now }
        guard recent.count < limit else {
            dates[uid] = recent
            return false
        }
        recent.append(now)
        dates[uid] = recent
        return true
    }

    /// Callers with a launch in the minute before `now`.
    public func callers(at now: Date) -> Int {
        dates.values.filter { $0.contains { $0 > now - Self.length && $0 <= now } }.count
    }

    /// Callers the window holds dates for, idle ones not yet forgotten included.
    var knownCallers: Int { dates.count }

    private mutating func forgetIdle(at now: Date) {
        dates = dates.filter { $0.value.contains { $0 > now - Self.length && $0 <= now } }
    }
}

extension DaemonState {
    /// Counts a provider launch that `preview`, `placeholder` or `options` asks for on behalf
    /// of `uid`, or refuses it past `[providers] preview-launches-per-minute`. The caller the
    /// limit does not apply to (root, the daemon's own user) is not counted.
    public mutating func admitPreviewLaunch(for uid: UInt32, at now: Date) throws(StateError) {
        let limit = settings.previewLaunchesPerMinute
        guard previewLaunches.admit(uid, limit: limit, at: now) else {
            throw .limitExceeded(LimitExceeded(
                setting: "preview-launches-per-minute", section: "providers", max: limit,
                what: "\(limit) provider launches a minute for uid \(uid) (preview, placeholder, options)"))
        }
    }
}
