import Foundation
import WidgetCore

extension Engine {
    /// Called after a request changed the schedule. Rings the scheduler loop only when it has
    /// to act before it would wake by itself, and refreshes STATUS= when the summary changed.
    ///
    /// Why: every request used to ring, so a busy socket woke the loop (and rebuilt and sent
    /// STATUS=) thousands of times a second for nothing: a reload merged into a waiting one,
    /// or deferred by the budget, moves no deadline.
    func scheduleChanged() {
        let next = nextWake()
        if Self.mustWakeLoop(next: next, now: now, loopWakesAt: loopWakesAt, virtual: isVirtual, stacksWaiting: !dirtyStacks.isEmpty) {
            // The loop will sleep until at most `next` once it has run; later changes that are
            // not earlier still need no ring.
            loopWakesAt = next
            doorbell.ring()
        }
        publishStatus(next: next)
    }

    /// Whether a change must wake the loop: a stack waits for evaluation, something is due
    /// now, or (on the real clock) the earliest deadline moved before the loop's wake-up.
    /// On the virtual clock nothing else comes due until the clock moves, and moving it
    /// carries out what is due itself.
    static func mustWakeLoop(next: Date?, now: Date, loopWakesAt: Date?, virtual: Bool, stacksWaiting: Bool) -> Bool {
        if stacksWaiting { return true }
        guard let next else { return false }
        if next <= now { return true }
        if virtual { return false }
        guard let loopWakesAt else { return true }
        return next < loopWakesAt
    }

    /// Hands STATUS= to the reporter when what it summarises changed.
    func publishStatus(next: Date?) {
        let inputs = currentStatusInputs(next: next)
        guard inputs != statusInputs else { return }
        statusInputs = inputs
        statusReporter.update(Self.statusLine(inputs))
    }

    func currentStatusInputs(next: Date?) -> StatusInputs {
        StatusInputs(
            instances: instances.count, kinds: catalog.descriptors.count, stacks: stacks.count, nextWake: next,
            virtualNow: virtualNow, storageFault: storageFault?.cause)
    }

    static func statusLine(_ inputs: StatusInputs) -> String {
        var line = "\(inputs.instances) instances, \(inputs.kinds) kinds"
        if let fault = inputs.storageFault { line = "state not saved (\(fault)), changes refused; " + line }
        if inputs.stacks > 0 { line += ", \(inputs.stacks) stacks" }
        if let next = inputs.nextWake { line += ", next wake-up \(ISO8601.string(from: next))" }
        if let virtualNow = inputs.virtualNow { line += ", virtual clock at \(ISO8601.string(from: virtualNow))" }
        return line
    }
}

/// What the STATUS= line says.
struct StatusInputs: Equatable {
    var instances: Int
    var kinds: Int
    var stacks: Int
    var nextWake: Date?
    var virtualNow: Date?
    /// A storage fault's short cause, while writes fail.
    var storageFault: String?
}
