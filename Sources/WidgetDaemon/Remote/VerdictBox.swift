import Foundation
import Glibc
import Logging
import ServiceLifecycle
import Synchronization
import WidgetCore

/// Hands a verdict from the inbox's task to the blocked network thread.
final class VerdictBox: Sendable {
    private let value = Mutex<MosquittoSession.Verdict?>(nil)
    private let ready = DispatchSemaphore(value: 0)

    func set(_ verdict: MosquittoSession.Verdict) {
        value.withLock { $0 = verdict }
        ready.signal()
    }

    func wait() -> MosquittoSession.Verdict {
        ready.wait()
        return value.withLock { $0 } ?? .redeliver
    }
}
