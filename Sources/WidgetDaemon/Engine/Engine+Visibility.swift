import Foundation
import WidgetCore
import WidgetProtocol
import WidgetStore

extension Engine {
    /// A host reports what it shows now. Recorded (when each instance was last visible,
    /// durably) for budget work that favours what people actually see.
    public func reportVisible(_ params: VisibleParams) async throws(RPCError) -> VisibleResult {
        for id in params.instances { _ = try instance(id) }
        let now = self.now
        try await commit(params.instances.map { .putVisibility($0, lastVisible: now) })
        visibleNow = Set(params.instances.filter { instances[$0] != nil })
        for id in visibleNow { lastVisible[id] = now }
        return VisibleResult(visible: visibleNow.sorted())
    }

    /// `stack show` implies the host shows the stack's top. A host may poll `stack show`, so
    /// the date is stored at most once a minute per instance.
    func noteShown(_ id: InstanceID?) {
        guard let id, instances[id] != nil else { return }
        let now = self.now
        let previous = lastVisible[id]
        lastVisible[id] = now
        if let previous, abs(now.timeIntervalSince(previous)) < 60 { return }
        let store = self.store
        // Derived and advisory: stored in the background, a lost write only ages the date.
        Task { try? await store.apply([.putVisibility(id, lastVisible: now)]) }
    }
}
