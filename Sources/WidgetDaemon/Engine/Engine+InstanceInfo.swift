import Foundation
import WidgetCore
import WidgetProtocol

extension Engine {
    func list(_ call: Reply<[InstanceInfo]>) {
        call.succeed(state.instances.inPlacementOrder.map { info($0) } + failedInfos())
    }

    /// Instances whose stored row does not decode, after the others, oldest first: shown so
    /// that they are not lost silently, with why.
    func failedInfos() -> [InstanceInfo] {
        guard !state.failedInstances.isEmpty else { return [] }
        return state.failedInstances.values.sorted { ($0.created, $0.id) < ($1.created, $1.id) }.map { failed in
            var info = InstanceInfo(
                id: failed.id, kind: failed.kind, family: failed.family ?? .systemSmall, configuration: [:],
                currentEntry: nil, hasTimeline: false, nextReload: nil)
            info.failure = failed.reason
            return info
        }
    }

    /// WidgetKit's `WidgetInfo`, plus what the daemon knows about the instance now.
    func info(_ id: InstanceID) -> InstanceInfo? {
        state.instances[id].map { info($0) }
    }

    func info(_ record: InstanceRecord) -> InstanceInfo {
        let instance = record.instance
        var info = InstanceInfo(
            id: instance.id, kind: instance.kind, family: instance.family, configuration: instance.configuration,
            currentEntry: record.timeline?.timeline.currentEntry(at: now), hasTimeline: record.timeline != nil,
            nextReload: state.scheduler.pendingReload(for: instance.id, in: state.instances)?.due)
        info.visible = record.visible
        info.lastVisible = record.lastVisible
        info.invalidated = record.invalidation != nil ? true : nil
        return info
    }
}
