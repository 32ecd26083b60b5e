import Foundation
import Testing
import WidgetCore
import WidgetdClient
@testable import WidgetIntegrationSupport

extension Integration {
    /// The app-side library against a running daemon.
    @Suite struct WidgetCenterCalls {
        @Test func reloadsAndConfigurationsAsOnIOS() async throws {
            let fixture = try DaemonFixture()
            try fixture.counterWidget()
            try fixture.descriptor("test.pushed", exec: nil, intent: DaemonFixture.testIntent)
            try fixture.start()
            let center = WidgetCenter(socketPath: fixture.socketPath)
            let counter = try fixture.add("test.counter", family: "systemMedium", "city=Oslo")
            let pushed = try fixture.add("test.pushed")
            #expect(fixture.ctl("clock", "advance", "30s").status == 0)

            // WidgetKit's names: fire and forget.
            center.reloadTimelines(ofKind: "test.counter")
            center.reloadAllTimelines()
            #expect(fixture.ctl("clock", "advance", "0s").status == 0)
            #expect(fixture.launches().map(\.now) == ["2026-01-05T08:00:00Z", "2026-01-05T08:00:30Z"])
            // The throwing twins say what happened.
            #expect(try center.requestReload(ofKinds: ["test.counter"], userInitiated: true) == [counter])

            let infos = try await center.currentConfigurations()
            #expect(infos.map(\.id).sorted() == [counter, pushed].sorted())
            let info = try #require(infos.first { $0.id == counter })
            #expect(info.kind == "test.counter")
            #expect(info.family == .systemMedium)
            #expect(info.configuration == ["city": .string("Oslo")])

            let viaCallback = await withCheckedContinuation { continuation in
                center.getCurrentConfigurations { continuation.resume(returning: $0) }
            }
            #expect((try? viaCallback.get())?.count == 2)

            let timeline = WidgetTimeline(
                entries: [WidgetEntry(date: ISO8601.date(from: "2026-01-05T09:00:00Z")!, content: .object(["v": .integer(1)]))],
                policy: .never)
            try center.push(timeline, to: pushed)
            let shown = fixture.ctl("--json", "timeline", pushed).object
            #expect((shown["entries"] as? [Any])?.count == 1)
            #expect(try center.invalidateRecommendations() == 0)
        }

        @Test func errorsAreTyped() throws {
            let fixture = try DaemonFixture()
            try fixture.counterWidget()
            let center = WidgetCenter(socketPath: fixture.socketPath)
            do {
                _ = try center.configurations()
                Issue.record("no daemon, yet no error")
            } catch {
                guard case .daemonUnreachable = error else { Issue.record("\(error)"); return }
            }
            center.reloadAllTimelines()  // does not throw, like WidgetKit
            try fixture.start()
            do {
                try center.requestReload(ofKinds: ["test.nope"])
                Issue.record("unknown kind accepted")
            } catch {
                guard case .refused(let code, let message) = error else { Issue.record("\(error)"); return }
                #expect(code == -32001)
                #expect(
                    message == "unknown kind 'test.nope' (descriptors read from \(fixture.widgetsDirectory); "
                        + "add a descriptor there, it is picked up at once)")
            }
        }
    }
}
