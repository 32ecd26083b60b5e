import Foundation
import Synchronization
import Testing
import WidgetCore
@testable import WidgetDaemon
@testable import WidgetTestSupport

/// Clock jumps (docs/overview.md), on the real clock's code path (an injected wall clock): after a jump
/// forward the engine's tick tells every entry change in between, in order, each with its own
/// entry; after a step back it tells the entry shown now, once, and nothing else.
@Suite struct RealClockCatchUpTests {
    final class WallClock: Sendable {
        let date = Mutex(ISO8601.date(from: "2026-01-05T08:00:00Z")!)
        func set(_ text: String) { date.withLock { $0 = ISO8601.date(from: text)! } }
        var now: Date { date.withLock { $0 } }
    }

    /// Each event's (type, date, entry content), from lines a subscriber was handed.
    static func events(_ lines: [Data]) -> [(String, String, String)] {
        lines.map { line in
            let params = ((try? JSONSerialization.jsonObject(with: line)) as? [String: Any])?["params"] as? [String: Any] ?? [:]
            let content = (params["entry"] as? [String: Any])?["content"] as? String ?? "-"
            return (params["type"] as? String ?? "-", params["date"] as? String ?? "-", content)
        }
    }

    @Test func aJumpForwardTellsEveryEntryChangeAndAStepBackTellsTheEntryShownNow() async throws {
        let wall = WallClock()
        let harness = try Harness(
            virtualStart: nil, descriptors: #"{"kind":"k.push","supportedFamilies":["systemSmall"]}"#, wallClock: { wall.now })
        let engine = harness.engine
        let id = try await harness.add("k.push")
        let minutes = [0, 10, 20, 30, 40, 50, 60]
        let names = minutes.map { String(format: "%02d:%02d", 8 + $0 / 60, $0 % 60) }
        let entries = names.map { #"{"date":"2026-01-05T\#($0):00Z","content":"\#($0)"}"# }.joined(separator: ",")
        let pushed = await harness.call("push", #"{"id":"\#(id)","timeline":{"entries":[\#(entries)],"policy":"never"}}"#)
        #expect(pushed.errorCode == nil)
        await harness.inspect { $0.tick() }

        // Events are handed to the subscriber on the engine's loop, in the tick itself.
        let seen = Mutex<[Data]>([])
        let subscriber = Subscriber { line in seen.withLock { $0.append(Data(line.readableBytesView)) } }
        engine.events.subscribe(subscriber)
        wall.set("2026-01-05T09:05:00Z")
        await harness.inspect { $0.tick() }
        let forward = Self.events(seen.withLock { $0 })
        #expect(forward.map(\.0) == Array(repeating: "entryChange", count: 6))
        #expect(forward.map(\.2) == Array(names.dropFirst()))
        #expect(forward.map(\.1) == names.dropFirst().map { "2026-01-05T\($0):00Z" })

        seen.withLock { $0 = [] }
        wall.set("2026-01-05T08:05:00Z")
        await harness.inspect { $0.tick() }
        await harness.inspect { $0.tick() }
        engine.events.unsubscribe(subscriber)
        let back = Self.events(seen.withLock { $0 })
        #expect(back.map(\.2) == ["08:00"])
        #expect(back.map(\.1) == ["2026-01-05T08:05:00Z"])
    }
}
