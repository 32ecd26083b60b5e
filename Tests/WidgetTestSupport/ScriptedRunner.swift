import Foundation
import Synchronization
@testable import WidgetDaemon

/// Answers every launch with a fixed timeline (after `delay`) and records the requests it was given.
final class ScriptedRunner: ProviderRunning {
    private let invocations = Mutex<[ProviderInvocation]>([])
    private let answer: Mutex<Data>
    let delay: Duration

    init(answer: String, delay: Duration = .zero) {
        self.answer = Mutex(Data(answer.utf8))
        self.delay = delay
    }

    func run(_ invocation: ProviderInvocation) async throws(ProviderFailure) -> Data {
        invocations.withLock { $0.append(invocation) }
        if delay > .zero { try? await Task.sleep(for: delay) }
        return answer.withLock { $0 }
    }

    func setAnswer(_ text: String) { answer.withLock { $0 = Data(text.utf8) } }

    func terminateAll() async {}
    func setMaxConcurrent(_ limit: Int) async {}
    var running: Int { 0 }

    var launches: Int { invocations.withLock { $0.count } }

    /// Each request's bytes, in launch order.
    func requests() -> [Data] {
        invocations.withLock { $0 }.map(\.request)
    }

    /// The `now` field of each request, in launch order.
    func requestedNows() -> [String] {
        invocations.withLock { $0 }.compactMap {
            ((try? JSONSerialization.jsonObject(with: $0.request)) as? [String: Any])?["now"] as? String
        }
    }
}
