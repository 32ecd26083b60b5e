import Foundation
import Logging
import NIOCore
import WidgetCore
import WidgetProtocol

/// Applies remote updates: each message read (`RemoteTopics`), turned into the request the
/// socket would get and run through the engine's method for it as the configured identity,
/// so it is authorized and committed exactly like a local one. Remote reloads pass the remote
/// reload budget first; what it defers is written to disk before the message is acknowledged,
/// and applied when the window has room.
actor RemoteInbox {
    let engine: Engine
    private let topics: RemoteTopics
    let caller: PeerCredentials
    private let file: RemoteReloadFile
    let logger: Logger
    private var budget: RemoteReloadBudget
    private var requestID = 0
    private var releaseTimer: Task<Void, Never>?
    /// One message or release at a time: each reads the budget, awaits the engine, then
    /// writes the budget, and an interleaved other one would be overwritten.
    private var busy = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(engine: Engine, settings: RemoteSettings, caller: PeerCredentials, file: RemoteReloadFile, logger: Logger) {
        self.engine = engine
        topics = RemoteTopics(prefix: settings.topicPrefix)
        self.caller = caller
        self.file = file
        self.logger = logger
        var budget = file.load(logger: logger) ?? RemoteReloadBudget(limit: settings.reloadLimit)
        budget.setLimit(settings.reloadLimit)
        self.budget = budget
    }

    /// Applies what is due from before a restart, and waits for the rest.
    func start() async {
        await releaseDueInTurn()
    }

    func stop() {
        releaseTimer?.cancel()
        releaseTimer = nil
    }

    /// One message: whether to let its acknowledgement go. Refused messages are acknowledged
    /// too (logged with topic and reason): redelivering them would fail the same way forever.
    func apply(topic: String, payload: [UInt8]) async -> MosquittoSession.Verdict {
        await take()
        defer { give() }
        // Due deferrals go first, in arrival order; on the virtual clock (which the release
        // timer does not follow) this is also when they are noticed.
        if let next = budget.nextRelease, next <= (await engine.now) { await releaseDue() }
        let message: RemoteMessage
        do {
            message = try topics.message(topic: topic, payload: payload)
        } catch {
            logger.warning("remote message refused", metadata: ["topic": "\(topic)", "reason": "\(error.reason)"])
            return .acknowledge
        }
        if let key = message.donationKey, await isStored(key) {
            // Delivered again after a crash between its commit and its PUBACK.
            logger.info("remote donation already stored; skipped", metadata: ["topic": "\(topic)", "id": "\(key.id)"])
            return .acknowledge
        }
        let targets = message.reloadTargets
        guard !targets.isEmpty else { return await run(message, topic: topic).verdict }

        let now = await engine.now
        let before = budget
        var admitted: [String] = []
        for target in targets {
            switch budget.admit(target, at: now) {
            case .apply:
                admitted.append(target)
            case .deferred(let until):
                logger.info(
                    "remote reload deferred",
                    metadata: ["topic": "\(topic)", "target": "\(target)", "until": "\(ISO8601.string(from: until))"])
            }
        }
        if !admitted.isEmpty {
            let answer = await run(Self.reload(admitted), topic: topic)
            guard case .applied = answer else {
                // Refused whole (an unknown kind, not authorized): nothing counted or deferred.
                budget = before
                return answer.verdict
            }
        }
        guard await save() else {
            budget = before
            return .redeliver
        }
        armReleaseTimer(now: now)
        return .acknowledge
    }

    private func releaseDueInTurn() async {
        await take()
        defer { give() }
        await releaseDue()
    }

    private func take() async {
        guard busy else {
            busy = true
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    /// Hands the turn to the next in line (still busy), or frees it.
    private func give() {
        if waiting.isEmpty { busy = false } else { waiting.removeFirst().resume() }
    }

    /// Runs the deferred reloads the window has room for now.
    private func releaseDue() async {
        let now = await engine.now
        let before = budget
        let released = budget.release(at: now)
        for target in released {
            let topic = topics.prefix + "/reload"
            logger.info("remote reload released", metadata: ["topic": "\(topic)", "target": "\(target)"])
            if case .notApplied = await run(Self.reload([target]), topic: topic) {
                // Not applied (the store failed): it stays deferred and is tried again.
                budget = before
                break
            }
        }
        if !released.isEmpty, !(await save()) { budget = before }
        armReleaseTimer(now: now)
    }

    private static func reload(_ targets: [String]) -> RemoteMessage {
        targets == [RemoteMessage.allTarget] ? .reloadAll : .reload(kinds: targets.filter { $0 != RemoteMessage.allTarget })
    }

    /// One wake-up at the next release, none while nothing waits.
    private func armReleaseTimer(now: Date) {
        releaseTimer?.cancel()
        releaseTimer = nil
        guard let next = budget.nextRelease else { return }
        let delay = max(0, next.timeIntervalSince(now))
        releaseTimer = Task { [weak self] in
            try? await Task.sleep(for: .milliseconds(Int64(min(delay, 7 * 24 * 3600) * 1000)))
            guard !Task.isCancelled else { return }
            await self?.releaseDueInTurn()
        }
    }

    /// Writes the budget on a thread of its own: the fsync must not hold up the event loop.
    private func save() async -> Bool {
        let file = self.file
        let budget = self.budget
        let result: Result<Void, any Error> = await withCheckedContinuation { done in
            Thread { done.resume(returning: Result { try file.save(budget) }) }.start()
        }
        do {
            try result.get()
            return true
        } catch {
            logger.error("remote reload budget not saved", metadata: ["error": "\(error)"])
            return false
        }
    }

    /// A fresh id for the next request line.
    func nextRequestID() -> Int {
        requestID += 1
        return requestID
    }
}
