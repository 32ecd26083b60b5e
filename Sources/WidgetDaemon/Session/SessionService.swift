import Foundation
import Logging
import NIOCore
import ServiceLifecycle
import WidgetCore

/// The session's sources feeding the engine (`--context-bus system`, docs/session.md): the
/// watchers' thread, its readings handed to `Engine.observe` through a `ReadingMailbox`,
/// `PrepareForSleep` to the engine, and GeoClue started or stopped as the engine's use of a
/// location clue changes (`DaemonState.usesLocationClue`, which is off with `[context]
/// location = off`; looked at after each step that changed something: a timeline installed, a
/// widget added or removed).
struct SessionService: Service {
    let watchers: SessionWatchers
    let engine: Engine
    let demand: LocationDemand

    init(scope: SessionScope, limits: LimitSettings, engine: Engine, logger: Logger) throws {
        let loop = engine.loop
        let mailbox = ReadingMailbox()
        let watchers = try SessionWatchers(
            scope: scope, maxTrackedObjects: limits.maxSessionObjects, logger: logger,
            deliver: { readings in
                guard mailbox.put(readings) else { return }
                loop.execute { engine.assumeIsolated { $0.observe(mailbox.take()) } }
            },
            sleep: { starting, ready in
                if starting {
                    Task {
                        await engine.prepareForSleep()
                        ready()
                    }
                } else {
                    loop.execute { engine.assumeIsolated { $0.resumedFromSleep() } }
                }
            })
        self.watchers = watchers
        let demand = LocationDemand()
        self.demand = demand
        engine.events.onChange {
            guard loop.inEventLoop else { return }
            let now = engine.assumeIsolated { $0.usesLocationClue }
            if demand.update(now) { watchers.post(.locationWanted(now)) }
        }
        self.engine = engine
    }

    func run() async throws {
        watchers.start()
        // A restored state may use a location clue already.
        if await engine.usesLocationClue, demand.update(true) { watchers.post(.locationWanted(true)) }
        try? await gracefulShutdown()
        let watchers = self.watchers
        // Joining the thread blocks: never on the loop.
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            Thread.detachNewThread {
                watchers.stop()
                done.resume()
            }
        }
    }
}
