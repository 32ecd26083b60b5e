import Foundation
import WidgetStore

extension Engine {
    /// A write failed: remembers why, and logs it when the cause is new (by its short name:
    /// a full disk gives slightly different messages for a statement and a commit). A full disk refuses
    /// every write until space is freed; one line when it starts (and one when it ends, see
    /// `storageWorked`) says more than one per refused request.
    func storageFailed(_ error: any Error) {
        let cause = (error as? StoreError)?.cause ?? "\(error)"
        defer { storageFault = cause }
        guard storageFault != cause else {
            logger.debug("state not saved", metadata: ["error": "\(error)"])
            return
        }
        logger.error(
            "state not saved; state-changing requests are refused (and reloads keep their previous timeline) until writes succeed again",
            metadata: ["error": "\(error)", "state": "\(stateDirectory)"])
    }

    /// A write succeeded: ends a storage fault, if there was one.
    func storageWorked() {
        guard let fault = storageFault else { return }
        storageFault = nil
        logger.notice("state writable again", metadata: ["previousFault": "\(fault)", "state": "\(stateDirectory)"])
    }
}
