import Foundation
import NIOCore
import NIOPosix
import Synchronization
import Testing
import WidgetCore
import WidgetDescriptorFiles
import WidgetProtocol
import WidgetStore
@testable import WidgetDaemon

/// A store in memory that can be told to fail, to check that a failed commit changes nothing,
/// or to hold its writes, as a slow sync would, so a test can order requests. Submissions
/// complete in order, as the real store's do.
final class MemoryStateStore: StateStore {
    private struct State {
        var applied: [[StoreChange]] = []
        var failWrites = false
        var paused = false
        var parked: [([StoreChange], @Sendable (Result<Void, any Error>) -> Void)] = []
    }

    private let state = Mutex(State())
    private let queue = DispatchQueue(label: "memory-store")

    func load() async throws -> PersistedState { PersistedState() }

    func submit(_ changes: [StoreChange], completion: @escaping @Sendable (Result<Void, any Error>) -> Void) {
        queue.async {
            let parked = self.state.withLock { state -> Bool in
                guard state.paused else { return false }
                state.parked.append((changes, completion))
                return true
            }
            if !parked { completion(self.write(changes)) }
        }
    }

    private func write(_ changes: [StoreChange]) -> Result<Void, any Error> {
        state.withLock { state in
            if state.failWrites { return .failure(StoreError("disk full (simulated)")) }
            state.applied.append(changes)
            return .success(())
        }
    }

    var applied: [[StoreChange]] { state.withLock { $0.applied } }
    var parkedWrites: Int { state.withLock { $0.parked.count } }

    func setFailWrites(_ fail: Bool) { state.withLock { $0.failWrites = fail } }

    func pauseWrites() { state.withLock { $0.paused = true } }

    func resumeWrites() {
        queue.async {
            let parked = self.state.withLock { state in
                state.paused = false
                defer { state.parked = [] }
                return state.parked
            }
            for (changes, completion) in parked { completion(self.write(changes)) }
        }
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

    /// The `now` field of each request, in launch order.
    func requestedNows() -> [String] {
        invocations.withLock { $0 }.compactMap {
            ((try? JSONSerialization.jsonObject(with: $0.request)) as? [String: Any])?["now"] as? String
        }
    }
}

/// An engine with fakes on an event loop of its own, driven as the socket drives it.
struct Harness {
    static let loops = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    static let start = ISO8601.date(from: "2026-01-05T08:00:00Z")!

    let store = MemoryStateStore()
    let runner: ScriptedRunner
    let engine: Engine

    /// `virtualStart` nil runs the engine on the real clock; `wallClock`, `bootClock` and
    /// `armTimer` replace its clocks (see `ManualClocks`).
    init(
        answer: String = #"{"entries":[{"date":"2026-01-05T08:00:00Z","content":1}],"policy":"never"}"#,
        virtualStart: Date? = Harness.start, descriptors: String? = nil, runner: ScriptedRunner? = nil,
        access: AccessPolicy? = nil, accounts: AccountTable = AccountTable(), wallClock: (@Sendable () -> Date)? = nil,
        bootClock: (@Sendable () -> Double)? = nil, armTimer: EngineSetup.ArmTimer? = nil
    ) throws {
        self.runner = runner ?? ScriptedRunner(answer: answer)
        let text = descriptors ?? #"""
            {"kind":"k.clock","supportedFamilies":["systemSmall"],"provider":{"exec":["/bin/true"]},
             "intent":{"type":"Clock","parameters":[{"name":"city","type":"string"}],"supportedCombinations":[["city"]]}}
            """#
        var catalog = DescriptorCatalog()
        for descriptor in try DescriptorParser.parse(Data(text.utf8), path: "/etc/k.json", accounts: accounts) {
            catalog.insertForTesting(descriptor)
        }
        engine = Engine(
            loop: Self.loops.next(), store: store, runner: self.runner, settings: DaemonSettings(), catalog: catalog,
            setup: EngineSetup(
                widgetsDirectories: [], stateDirectory: "/nonexistent", wallClock: wallClock ?? { Date() },
                bootClock: bootClock ?? EngineClock.bootTime, armTimer: armTimer ?? EngineSetup.loopTimer),
            virtualStart: virtualStart, logger: .init(label: "test"), accessPolicy: access)
    }

    /// Sends one request line as `caller`; returns the answer as a JSON value (nil for none).
    func answer(line: String, as caller: PeerCredentials = .currentProcess) async -> Any? {
        guard let data = await engine.handle(Data(line.utf8), caller: caller) else { return nil }
        return try? JSONSerialization.jsonObject(with: data)
    }

    func send(line: String, as caller: PeerCredentials = .currentProcess) async -> [String: Any] {
        await answer(line: line, as: caller) as? [String: Any] ?? [:]
    }

    func call(_ method: String, _ params: String = "{}", as caller: PeerCredentials = .currentProcess) async -> [String: Any] {
        await send(line: #"{"jsonrpc":"2.0","id":1,"method":"\#(method)","params":\#(params)}"#, as: caller)
    }

    /// Adds an instance; returns its id.
    func add(_ kind: String = "k.clock", stack: String? = nil, as caller: PeerCredentials = .currentProcess) async throws -> String {
        let stackParam = stack.map { #","stack":"\#($0)""# } ?? ""
        let added = await call("add", #"{"kind":"\#(kind)","family":"systemSmall"\#(stackParam)}"#, as: caller)
        return try #require((added.result as? [String: Any])?["id"] as? String, "\(added)")
    }

    /// Runs `body` in the engine's isolation (to read its state).
    func inspect<T: Sendable>(_ body: @Sendable (isolated Engine) -> T) async -> T {
        await engine.run(body)
    }
}

extension Engine {
    /// One request line answered without a connection.
    func handle(_ line: Data, caller: PeerCredentials) async -> Data? {
        await withCheckedContinuation { continuation in
            serve(ByteBuffer(bytes: line), caller: caller, connection: nil) { answer in
                continuation.resume(returning: answer.map { Data($0.readableBytesView) })
            }
        }
    }

    func run<T: Sendable>(_ body: @Sendable (isolated Engine) -> T) -> T {
        body(self)
    }
}

extension Dictionary where Key == String, Value == Any {
    var errorCode: Int? { (self["error"] as? [String: Any])?["code"] as? Int }
    var errorMessage: String? { (self["error"] as? [String: Any])?["message"] as? String }
    var result: Any? { self["result"] }
}
