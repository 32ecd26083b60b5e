import Foundation
import WidgetCore
import WidgetProtocol

extension Engine {
    /// Moves the virtual clock forward, carrying out everything due on the way in date order
    /// (entry changes, reloads with their provider launches, budget deferrals coming due)
    /// before answering. Provider requests carry the virtual time of their launch.
    func advance(_ params: ClockAdvanceParams, _ call: Reply<ClockInfo>) async {
        await answer(call) { () async throws(RPCError) -> ClockInfo in
            guard let start = time.clock.virtualNow else { throw .clockNotVirtual }
            guard params.seconds.isFinite, params.seconds >= 0 else {
                throw .invalidParams("params.seconds: must be a number of seconds >= 0")
            }
            let target = start.addingTimeInterval(params.seconds)
            guard SupportedDates.contains(target) else {
                throw .invalidParams("params.seconds: the clock would leave \(SupportedDates.text)")
            }
            if params.asleep == true { return try await passAsleep(until: target) }
            return try await move(to: target)
        }
    }

    /// `clock.advance` with `asleep`: a suspend on the virtual clock. The wall clock moves and the
    /// monotonic clock the timer runs on stands still, so nothing due is carried out here; the
    /// resume carries it out in one step (`resumedFromSleep`); so does the next clock move or
    /// change, as the first look at the clock after a real resume would.
    private func passAsleep(until target: Date) async throws(RPCError) -> ClockInfo {
        guard !time.clock.advancing else { throw RPCError(code: RPCError.Code.busy, message: "the clock is already moving") }
        time.clock.advancing = true
        defer { time.clock.advancing = false }
        await quiesce()
        guard !time.stopping else { throw .shuttingDown }
        time.clock.virtualNow = max(time.clock.virtualNow ?? target, target)
        io.logger.info("the virtual clock passed time asleep: what came due waits for the resume", metadata: ["now": "\(ISO8601.string(from: now))"])
        return ClockInfo(mode: "virtual", now: now, processed: 0)
    }

    /// Sets the virtual clock. Forward, it behaves as `advance`; backward, it applies the rules
    /// of a wall-clock step back (`DaemonState.clockSteppedBack`) without firing anything twice.
    func setClock(_ params: ClockSetParams, _ call: Reply<ClockInfo>) async {
        await answer(call) { () async throws(RPCError) -> ClockInfo in
            guard let start = time.clock.virtualNow else { throw .clockNotVirtual }
            guard SupportedDates.contains(params.date) else {
                throw .invalidParams("params.date: the virtual clock runs from \(SupportedDates.text)")
            }
            if params.date >= start { return try await move(to: params.date) }
            guard !time.clock.advancing else { throw RPCError(code: RPCError.Code.busy, message: "the clock is already moving") }
            time.clock.advancing = true
            defer { time.clock.advancing = false }
            await quiesce()
            time.clock.virtualNow = params.date
            publish(state.clockSteppedBack(from: start, to: params.date))
            let processed = await step()
            return ClockInfo(mode: "virtual", now: params.date, processed: processed)
        }
    }

    private func move(to target: Date) async throws(RPCError) -> ClockInfo {
        guard !time.clock.advancing else { throw RPCError(code: RPCError.Code.busy, message: "the clock is already moving") }
        time.clock.advancing = true
        defer { time.clock.advancing = false }
        var processed = 0
        var slice = ContinuousClock.now
        while true {
            await quiesce()
            guard !time.stopping else { throw .shuttingDown }
            guard let next = nextWake, next <= target else { break }
            time.clock.virtualNow = max(time.clock.virtualNow ?? next, next)
            processed += await step()
            if ContinuousClock.now - slice >= Self.clockSlice {
                await yieldToConnections()
                slice = ContinuousClock.now
            }
        }
        time.clock.virtualNow = max(time.clock.virtualNow ?? target, target)
        settle(nil)
        return ClockInfo(mode: "virtual", now: now, processed: processed)
    }

    /// How long a clock move works before it lets the loop read other connections (and
    /// SIGTERM): a jump over years is a long run of steps that resume each other.
    static let clockSlice: Duration = .milliseconds(20)

    /// Lets the loop poll its sockets before going on, taking a turn among the batches that
    /// wait theirs (`SliceQueue`): a step that had nothing to wait for resumes at once, and
    /// NIO runs every ready task before it polls again.
    private func yieldToConnections() async {
        let slices = self.io.slices
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            slices.enqueue { continuation.resume() }
        }
    }

    /// Carries out what is due at the current instant and waits for all of it (launches and
    /// the changes they lead to); returns how many entry changes and reload batches there were.
    private func step() async -> Int {
        let settlement = Settlement()
        settlement.begin()
        let popped = settle(settlement)
        settlement.end()
        await withCheckedContinuation { continuation in settlement.whenSettled { continuation.resume() } }
        await quiesce()
        return popped
    }

    /// Waits until nothing runs: no launch, no plan being stored or waiting.
    private func quiesce() async {
        while !launches.book.isIdle || !commits.flight.isIdle {
            await launchesIdle()
            await plansIdle()
        }
    }

    func clockInfo(processed: Int? = nil) -> ClockInfo {
        ClockInfo(mode: isVirtual ? "virtual" : "real", now: now, processed: processed)
    }
}
