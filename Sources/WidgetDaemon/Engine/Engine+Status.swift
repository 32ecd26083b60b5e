import Foundation
import WidgetCore
import WidgetStore

extension Engine {
    /// Hands STATUS= to the reporter when what it summarises changed.
    func publishStatus() {
        let inputs = currentStatusInputs()
        guard inputs != time.wake.statusInputs else { return }
        time.wake.statusInputs = inputs
        statusReporter.update(Self.statusLine(inputs))
    }

    /// A one-line summary for systemd's STATUS=.
    public func statusLine() -> String {
        Self.statusLine(currentStatusInputs())
    }

    func currentStatusInputs() -> StatusInputs {
        StatusInputs(
            instances: state.instances.count, kinds: state.descriptors.count, stacks: state.stacks.count,
            nextWake: nextWake, virtualNow: time.clock.virtualNow, storageFault: commits.storageFault?.cause)
    }

    static func statusLine(_ inputs: StatusInputs) -> String {
        var line = "\(inputs.instances) instances, \(inputs.kinds) kinds"
        if let fault = inputs.storageFault { line = "state not saved (\(fault)), changes refused; " + line }
        if inputs.stacks > 0 { line += ", \(inputs.stacks) stacks" }
        if let next = inputs.nextWake { line += ", next wake-up \(ISO8601.string(from: next))" }
        if let virtualNow = inputs.virtualNow { line += ", virtual clock at \(ISO8601.string(from: virtualNow))" }
        return line
    }

    /// A write failed: remembers why (for `status` and STATUS=), and logs it when the cause is
    /// new. A full disk refuses every write until space is freed; one line when it starts (and
    /// one when it ends, see `storageWorked`) says more than one per refused request. Causes are
    /// compared by short name: a full disk gives slightly different messages for a statement
    /// and a commit.
    func storageFailed(_ error: any Error) {
        let cause = (error as? StoreError)?.cause ?? "\(error)"
        let previous = commits.storageFault?.cause
        commits.storageFault = StorageFault(cause: cause, message: "\(error)")
        guard previous != cause else {
            io.logger.debug("state not saved", metadata: ["error": "\(error)"])
            return
        }
        io.logger.error(
            "state not saved; state-changing requests are refused (and reloads keep their previous timeline) until writes succeed again",
            metadata: ["error": "\(error)", "state": "\(io.setup.stateDirectory)"])
        publishStatus()
    }

    /// A write succeeded: ends a storage fault, if there was one.
    func storageWorked() {
        guard let fault = commits.storageFault else { return }
        commits.storageFault = nil
        io.logger.notice("state writable again", metadata: ["previousError": "\(fault.message)", "state": "\(io.setup.stateDirectory)"])
        publishStatus()
    }

    /// Stores changes that derive from the state (a configuration brought up to its
    /// descriptor, retention, a visibility date) without waiting: nothing is lost if they are
    /// not stored, since they are derived again.
    func storeInBackground(_ changes: [StoreChange]) {
        guard !changes.isEmpty else { return }
        io.store.submit(changes) { _ in }
    }
}
