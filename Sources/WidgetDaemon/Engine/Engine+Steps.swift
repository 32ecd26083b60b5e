import Foundation
import Logging
import NIOCore
import WidgetCore
import WidgetProtocol
import WidgetStore

extension Engine {
    /// Makes a change: plans it against the state as stored, stores the plan, applies it,
    /// tells subscribers, carries out what it made due, and reports back. A plan that touches
    /// what a plan being stored touches waits, and is planned again once that one is applied.
    /// An `applyFirst` attempt is applied and carried out before it is stored (see `Attempt`).
    func attempt(_ attempt: Attempt) {
        let plan: Plan
        do {
            plan = try attempt.make()
        } catch {
            attempt.refused(.refused(error))
            return
        }
        guard !commits.flight.ledger.conflicts(plan.keys) else {
            commits.flight.waiting.append(attempt)
            return
        }
        guard !plan.store.isEmpty else {
            apply(plan)
            attempt.onApply?()
            settle(attempt.settlement, launching: attempt.launchSettlement)
            attempt.applied()
            return
        }
        // Applied first: memory runs ahead of the store, in the order the store will follow
        // (one queue of commits), so it needs nothing held; what a later plan builds on it is
        // stored after it.
        let applyFirst = attempt.applyFirst && commits.storageFault == nil
        if !applyFirst { commits.flight.ledger.hold(plan) }
        commits.flight.lastTicket += 1
        let ticket = commits.flight.lastTicket
        commits.flight.storing[ticket] = (plan, attempt, applyFirst)
        // Plans made while the loop handles one round of reads go to the store together, at the
        // end of the round, so they share a transaction and its sync.
        if commits.flight.outbox.isEmpty {
            loop.execute { self.assumeIsolated { $0.sendOutbox() } }
        }
        commits.flight.outbox.append((ticket, plan.store))
        // Queued before it is applied: what applying it leads to (a stack evaluation) is
        // stored after it.
        if applyFirst {
            apply(plan)
            attempt.onApply?()
            settle(attempt.settlement, launching: attempt.launchSettlement)
        }
    }

    /// Hands the plans of this round to the store; their outcomes come back to the loop in one hop.
    private func sendOutbox() {
        let outbox = commits.flight.outbox
        commits.flight.outbox = []
        let loop = self.loop
        let inbox = self.io.inbox
        io.store.submit(batch: outbox.map { ticket, changes in
            (changes, { @Sendable [self] result in
                guard inbox.put(ticket, result) else { return }
                loop.execute {
                    self.assumeIsolated { engine in
                        for (ticket, result) in inbox.take() { engine.stored(ticket, result) }
                    }
                }
            })
        })
    }

    /// The store has committed (or refused) a plan.
    private func stored(_ ticket: UInt64, _ result: Result<Void, any Error>) {
        guard let (plan, attempt, applied) = commits.flight.storing.removeValue(forKey: ticket) else { return }
        if !applied { commits.flight.ledger.release(plan) }
        switch result {
        case .success:
            storageWorked()
            if !applied {
                apply(plan)
                attempt.onApply?()
                settle(attempt.settlement, launching: attempt.launchSettlement)
            }
            attempt.applied()
        case .failure(let error) where applied:
            storageFailed(error)
            if let unsaved = attempt.unsaved { unsaved(error) } else { attempt.refused(.notStored(error)) }
        case .failure(let error):
            // Nothing of the plan is applied: memory keeps matching the store.
            storageFailed(error)
            attempt.refused(.notStored(error))
        }
        retryWaiting()
        if commits.flight.isIdle {
            let waiters = commits.flight.idleWaiters
            commits.flight.idleWaiters = []
            for waiter in waiters { waiter.resume() }
        }
    }

    /// Waits until no plan is being stored or waiting for one.
    func plansIdle() async {
        guard !commits.flight.isIdle else { return }
        await withCheckedContinuation { commits.flight.idleWaiters.append($0) }
    }

    /// Applies a stored plan to memory, then tells subscribers and the journal.
    func apply(_ plan: Plan) {
        state.apply(plan)
        publish(plan.events)
        log(plan.notes)
    }

    /// Attempts that waited for a plan in flight, planned again in the order they came.
    private func retryWaiting() {
        guard !commits.flight.waiting.isEmpty else { return }
        let waiting = commits.flight.waiting
        commits.flight.waiting = []
        for waiter in waiting { attempt(waiter) }
    }

    /// Carries out what the step made due, at once: entry changes are told, launches start,
    /// stacks marked for evaluation are evaluated. Then the timer is set for what comes next.
    /// On the virtual clock the work is counted in `settlement` (launches in `launching`),
    /// whose request is answered once it is done; and while launches of the current instant
    /// are still out, stacks wait to be evaluated until the last of them is in.
    @discardableResult
    func settle(_ settlement: Settlement?) -> Int {
        settle(settlement, launching: settlement)
    }

    @discardableResult
    func settle(_ settlement: Settlement?, launching: Settlement?) -> Int {
        if time.wake.settling {
            time.wake.settleAgain = true
            return 0
        }
        time.wake.settling = true
        defer { time.wake.settling = false }
        var popped = 0
        // Every step looks at the wall clock: a step is noticed by the first wake-up or
        // request after it (`WallClockWatcher` makes one at once).
        noticeWallClockStep()
        repeat {
            time.wake.settleAgain = false
            guard !time.stopping else { break }
            let work = state.takeDue(at: now)
            time.wake.duePasses += 1
            popped += work.popped
            publish(work.events)
            for launch in work.launches { start(launch, launching) }
            if time.clock.isVirtual && !launches.book.isIdle { continue }
            evaluate(state.takeDirtyStacks(), settlement)
        } while time.wake.settleAgain
        rearm()
        publishStatus()
        return popped
    }

    /// Stacks evaluated again, together as one change: an hour's entry changes mark most
    /// stacks at once, and one plan is one savepoint, one trim of the decision log and one
    /// step after the commit, where a plan per stack cost each of those a thousand times. A
    /// stack that a plan in flight holds is evaluated as a change of its own, which waits for
    /// that plan, so the others need not.
    private func evaluate(_ names: [String], _ settlement: Settlement?) {
        var together: [String] = []
        for name in names {
            var keys = Keys()
            keys.take(.stack(name))
            if commits.flight.ledger.conflicts(keys) {
                evaluate(alone: name, settlement)
            } else {
                together.append(name)
            }
        }
        guard !together.isEmpty else { return }
        settlement?.begin()
        attempt(Attempt(
            make: { self.state.planEvaluation(together, at: self.now) },
            applied: { settlement?.end() },
            refused: { refusal in
                // A decision that cannot be stored is not made: the stacks keep their tops, and
                // are evaluated again at their next change.
                for name in together {
                    self.io.logger.debug("stack evaluation not stored", metadata: ["stack": "\(name)", "error": "\(refusal)"])
                }
                settlement?.end()
            },
            settlement: settlement))
    }

    private func evaluate(alone name: String, _ settlement: Settlement?) {
        settlement?.begin()
        attempt(Attempt(
            make: { self.state.planEvaluation([name], at: self.now) },
            applied: { settlement?.end() },
            refused: { refusal in
                self.io.logger.debug("stack evaluation not stored", metadata: ["stack": "\(name)", "error": "\(refusal)"])
                settlement?.end()
            },
            settlement: settlement))
    }

    // MARK: Telling

    func publish(_ changes: [StateEvent]) {
        guard !changes.isEmpty else { return }
        events.changed()
        guard events.count > 0 else { return }
        for change in changes {
            let event = WidgetEvent(change)
            let involved = event.donationInstances
            if involved.isEmpty {
                events.publish(event)
            } else {
                events.publish(event, sight: donationSights(among: involved))
            }
        }
    }

    func log(_ notes: [Note]) {
        for note in notes where note.level.logLevel >= io.logger.logLevel {
            var metadata = Logger.Metadata()
            for (key, value) in note.metadata { metadata[key] = "\(value)" }
            io.logger.log(level: note.level.logLevel, "\(note.message)", metadata: metadata)
        }
    }
}
