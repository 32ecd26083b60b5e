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

/// An engine with fakes on an event loop of its own, driven as the socket drives it.
struct Harness {
    static let loops = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    static let start = t0

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
