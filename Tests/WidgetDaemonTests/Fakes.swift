import Foundation
import WidgetCore
import WidgetStore
@testable import WidgetDaemon

/// A store in memory that can be told to fail, to check that a failed commit changes nothing.
actor MemoryStateStore: StateStore {
    private(set) var applied: [[StoreChange]] = []
    var failWrites = false

    func load() async throws -> PersistedState { PersistedState() }

    private var paused = false
    private var parked: [CheckedContinuation<Void, Never>] = []

    func apply(_ changes: [StoreChange]) async throws {
        if paused { await withCheckedContinuation { parked.append($0) } }
        if failWrites { throw StoreError("disk full (simulated)") }
        applied.append(changes)
    }

    func setFailWrites(_ fail: Bool) { failWrites = fail }

    /// Holds writes until `resumeWrites`, as a slow fsync would, so a test can order requests.
    func pauseWrites() { paused = true }

    var parkedWrites: Int { parked.count }

    func resumeWrites() {
        paused = false
        for continuation in parked { continuation.resume() }
        parked = []
    }

    func decisions(stack: String?, since: Date?, limit: Int) async throws -> [RotationDecision] {
        let all = applied.joined().compactMap { change -> RotationDecision? in
            if case .appendDecision(let decision) = change { return decision }
            return nil
        }
        let matching = all.filter { (stack == nil || $0.stack == stack) && (since == nil || $0.date >= since!) }
        return Array(matching.suffix(limit))
    }
}

/// Answers every launch with a fixed timeline and records the requests it was given.
actor ScriptedRunner: ProviderRunning {
    private(set) var invocations: [ProviderInvocation] = []
    let answer: Data

    init(answer: String) {
        self.answer = Data(answer.utf8)
    }

    nonisolated func run(_ invocation: ProviderInvocation) async throws(ProviderFailure) -> Data {
        await record(invocation)
        return answer
    }

    private func record(_ invocation: ProviderInvocation) { invocations.append(invocation) }

    func terminateAll() async {}
    func setMaxConcurrent(_ limit: Int) async {}
    var running: Int { 0 }

    /// The `now` field of each request, in launch order.
    func requestedNows() -> [String] {
        invocations.compactMap {
            ((try? JSONSerialization.jsonObject(with: $0.request)) as? [String: Any])?["now"] as? String
        }
    }
}

/// A router over an engine with fakes, on a virtual clock.
struct Harness {
    let store = MemoryStateStore()
    let runner: ScriptedRunner
    let engine: Engine
    let router: RequestRouter

    /// `virtualStart` nil runs the engine on the real clock.
    init(
        answer: String = #"{"entries":[{"date":"2026-01-05T08:00:00Z","content":1}],"policy":"never"}"#,
        virtualStart: Date? = ISO8601.date(from: "2026-01-05T08:00:00Z")
    ) throws {
        runner = ScriptedRunner(answer: answer)
        let descriptor = #"""
            {"kind":"k.clock","supportedFamilies":["systemSmall"],"provider":{"exec":["/bin/true"]},
             "intent":{"type":"Clock","parameters":[{"name":"city","type":"string"}]}}
            """#
        var catalog = DescriptorCatalog()
        catalog.insertForTesting(try DescriptorParser.parse(Data(descriptor.utf8), path: "/etc/k.json")[0])
        engine = Engine(
            store: store, runner: runner, settings: DaemonSettings(), catalog: catalog, widgetsDirectories: [],
            stateDirectory: "/nonexistent", virtualStart: virtualStart,
            logger: .init(label: "test"))
        router = RequestRouter(engine: engine, logger: .init(label: "test"))
    }

    /// Sends one request line; returns the answer as a JSON object.
    func send(line: String) async -> [String: Any] {
        guard let data = await router.handle(Data(line.utf8)) else { return [:] }
        return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
    }

    func call(_ method: String, _ params: String = "{}") async -> [String: Any] {
        await send(line: #"{"jsonrpc":"2.0","id":1,"method":"\#(method)","params":\#(params)}"#)
    }
}

extension Dictionary where Key == String, Value == Any {
    var errorCode: Int? { (self["error"] as? [String: Any])?["code"] as? Int }
    var errorMessage: String? { (self["error"] as? [String: Any])?["message"] as? String }
    var result: Any? { self["result"] }
}
