import Foundation
import Synchronization
import Testing
import WidgetCore
@testable import WidgetDaemon

/// semantics.md, Time 1, on the real clock's code path (an injected wall clock): after a jump
/// forward the loop's tick tells every entry change in between, in order, each with its own
/// entry; after a step back it tells the entry shown now, once, and nothing else.
@Suite struct RealClockCatchUpTests {
    final class WallClock: Sendable {
        let date = Mutex(ISO8601.date(from: "2026-01-05T08:00:00Z")!)
        func set(_ text: String) { date.withLock { $0 = ISO8601.date(from: text)! } }
        var now: Date { date.withLock { $0 } }
    }

    /// Each event's (type, date, entry content) from the stream, reading exactly `count`.
    static func take(_ count: Int, from iterator: inout AsyncStream<Data>.Iterator) async -> [(String, String, String)] {
        var taken: [(String, String, String)] = []
        while taken.count < count, let line = await iterator.next() {
            let params = ((try? JSONSerialization.jsonObject(with: line)) as? [String: Any])?["params"] as? [String: Any] ?? [:]
            let content = (params["entry"] as? [String: Any])?["content"] as? String ?? "-"
            taken.append((params["type"] as? String ?? "-", params["date"] as? String ?? "-", content))
        }
        return taken
    }

    @Test func aJumpForwardTellsEveryEntryChangeAndAStepBackTellsTheEntryShownNow() async throws {
        let wall = WallClock()
        var catalog = DescriptorCatalog()
        catalog.insertForTesting(try DescriptorParser.parse(Data(#"{"kind":"k.push","supportedFamilies":["systemSmall"]}"#.utf8), path: "/etc/k.json")[0])
        let engine = Engine(
            store: MemoryStateStore(), runner: ScriptedRunner(answer: "{}"), settings: DaemonSettings(), catalog: catalog,
            widgetsDirectories: [], stateDirectory: "/nonexistent", virtualStart: nil, logger: .init(label: "test"),
            wallClock: { wall.now })
        let router = RequestRouter(engine: engine, logger: .init(label: "test"))
        func call(_ method: String, _ params: String) async -> [String: Any] {
            let line = #"{"jsonrpc":"2.0","id":1,"method":"\#(method)","params":\#(params)}"#
            guard let data = await router.handle(Data(line.utf8)) else { return [:] }
            return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
        }
        let added = await call("add", #"{"kind":"k.push","family":"systemSmall"}"#)
        let id = try #require((added.result as? [String: Any])?["id"] as? String)
        let minutes = [0, 10, 20, 30, 40, 50, 60]
        let names = minutes.map { String(format: "%02d:%02d", 8 + $0 / 60, $0 % 60) }
        let entries = names.map { #"{"date":"2026-01-05T\#($0):00Z","content":"\#($0)"}"# }.joined(separator: ",")
        let pushed = await call("push", #"{"id":"\#(id)","timeline":{"entries":[\#(entries)],"policy":"never"}}"#)
        #expect(pushed.errorCode == nil)
        _ = await engine.tick()

        // Each phase's events are read after the stream is finished, so a missing one fails, not hangs.
        var (subscriber, stream) = engine.events.subscribe()
        wall.set("2026-01-05T09:05:00Z")
        _ = await engine.tick()
        engine.events.unsubscribe(subscriber)
        var iterator = stream.makeAsyncIterator()
        let forward = await Self.take(100, from: &iterator)
        #expect(forward.map(\.0) == Array(repeating: "entryChange", count: 6))
        #expect(forward.map(\.2) == Array(names.dropFirst()))
        #expect(forward.map(\.1) == names.dropFirst().map { "2026-01-05T\($0):00Z" })

        (subscriber, stream) = engine.events.subscribe()
        wall.set("2026-01-05T08:05:00Z")
        _ = await engine.tick()
        _ = await engine.tick()
        engine.events.unsubscribe(subscriber)
        iterator = stream.makeAsyncIterator()
        let back = await Self.take(100, from: &iterator)
        #expect(back.map(\.2) == ["08:00"])
        #expect(back.map(\.1) == ["2026-01-05T08:05:00Z"])
    }
}
