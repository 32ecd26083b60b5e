import Foundation
import WidgetStore

extension Engine {
    /// A write failed: remembers why (for `status` and STATUS=), and logs it when the cause
    /// is new. A full disk refuses every write until space is freed; one line when it starts
    /// (and one when it ends, see `storageWorked`) says more than one per refused request.
    /// Causes are compared by short name: a full disk gives slightly different messages for
    /// a statement and a commit.
    func storageFailed(_ error: any Error) {
        let cause = (error as? StoreError)?.cause ?? "\(error)"
        let previous = storageFault?.cause
        storageFault = (cause, "\(error)")
        guard previous != cause else {
            logger.debug("state not saved", metadata: ["error": "\(error)"])
            return
        }
        logger.error(
            "state not saved; state-changing requests are refused (and reloads keep their previous timeline) until writes succeed again",
            metadata: ["error": "\(error)", "state": "\(stateDirectory)"])
        doorbell.ring()  // STATUS= says so
    }

    /// A write succeeded: ends a storage fault, if there was one.
    func storageWorked() {
        guard let fault = storageFault else { return }
        storageFault = nil
        logger.notice("state writable again", metadata: ["previousError": "\(fault.message)", "state": "\(stateDirectory)"])
        doorbell.ring()
    }
}
