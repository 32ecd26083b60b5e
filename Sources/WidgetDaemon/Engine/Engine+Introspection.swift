import Foundation
import WidgetCore
import WidgetProtocol

extension Engine {
    func ping(_ call: Reply<PingResult>) {
        call.succeed(PingResult(daemon: ProtocolVersion.daemonVersion, protocol: ProtocolVersion.current))
    }

    func status(_ call: Reply<StatusResult>) {
        var result = StatusResult(
            daemon: ProtocolVersion.daemonVersion, protocol: ProtocolVersion.current, clock: clockInfo(),
            kinds: state.descriptors.count, instances: state.instances.count, timelines: state.instances.timelines,
            pendingReloads: state.scheduler.pendingReloadCount(in: state.instances), providersRunning: io.runner.running,
            nextWakeup: state.scheduler.nextDeadline(), budgetEnabled: state.settings.budgetEnabled,
            descriptorProblems: catalog.problems.count, stateDirectory: io.setup.stateDirectory)
        result.subscribers = events.count
        result.storageError = commits.storageFault?.message
        result.droppedAnswers = state.counters.droppedAnswers
        if !state.failedInstances.isEmpty { result.failedInstances = state.failedInstances.count }
        if commits.rowsLeftOut > 0 { result.rowsLeftOut = commits.rowsLeftOut }
        call.succeed(result)
    }

    func clock(_ call: Reply<ClockInfo>) {
        call.succeed(clockInfo())
    }

    /// Turns the connection into an event stream: after the answer, every event is written
    /// to it between answers, until it closes.
    func subscribe(_ call: Reply<SubscribeResult>) {
        if let subscriber = call.connection { events.subscribe(subscriber) }
        call.succeed(SubscribeResult(subscribed: true))
    }
}
