import Foundation
import WidgetCore
import WidgetProtocol

extension Engine {
    /// Moves the virtual clock forward, carrying out everything due on the way in date order
    /// (entry changes, reloads with their provider launches, budget deferrals coming due)
    /// before answering. Provider requests carry the virtual time of their launch.
    public func advance(_ params: ClockAdvanceParams) async throws(RPCError) -> ClockInfo {
        guard let start = virtualNow else { throw .clockNotVirtual }
        guard params.seconds.isFinite, params.seconds >= 0 else {
            throw .invalidParams("params.seconds: must be a number of seconds >= 0")
        }
        return try await move(to: start.addingTimeInterval(params.seconds))
    }

    /// Sets the virtual clock. Forward, it behaves as `advance`; backward, it applies the rules
    /// of a wall-clock step back (`clockSteppedBack`) without firing anything twice.
    public func setClock(_ params: ClockSetParams) async throws(RPCError) -> ClockInfo {
        guard let start = virtualNow else { throw .clockNotVirtual }
        if params.date >= start {
            return try await move(to: params.date)
        }
        guard !advancing else { throw RPCError(code: RPCError.Code.busy, message: "the clock is already moving") }
        await drainRunning()
        virtualNow = params.date
        clockSteppedBack(from: start, to: params.date)
        let processed = processDue()
        await drainRunning()
        await evaluateDirtyStacks()
        doorbell.ring()
        return clockInfo(processed: processed)
    }

    private func move(to target: Date) async throws(RPCError) -> ClockInfo {
        guard !advancing else { throw RPCError(code: RPCError.Code.busy, message: "the clock is already moving") }
        advancing = true
        defer { advancing = false }
        var processed = 0
        while true {
            await drainRunning()
            await evaluateDirtyStacks()
            guard !stopping else { throw .shuttingDown }
            guard let next = nextWake(), next <= target else { break }
            virtualNow = max(virtualNow ?? next, next)
            processed += processDue()
        }
        virtualNow = max(virtualNow ?? target, target)
        doorbell.ring()
        return clockInfo(processed: processed)
    }
}
