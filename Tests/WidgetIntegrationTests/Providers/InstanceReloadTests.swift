import Foundation
import Testing
import WidgetCore
import WidgetdClient
@testable import WidgetIntegrationSupport

extension Integration {
    /// `reloadTimelines` of single instances: the one named reloads, the rest of its kind keeps
    /// its budget, and a request naming anything unknown changes nothing.
    @Suite struct InstanceReloads {
        func budgetUsed(_ fixture: DaemonFixture, _ id: String) -> Int? {
            fixture.ctl("--json", "budget", id).object["used"] as? Int
        }

        func schedule(_ fixture: DaemonFixture) -> [String] {
            fixture.ctl("--json", "schedule").array.compactMap { $0["instance"] as? String }
        }

        @Test func onlyTheNamedInstanceReloadsUnderTheBudget() throws {
            let fixture = try DaemonFixture()
            try fixture.counterWidget()
            try fixture.start()
            let first = try fixture.add("test.counter")
            let second = try fixture.add("test.counter", family: "systemMedium")
            #expect(fixture.ctl("clock", "advance", "30s").status == 0)
            #expect(budgetUsed(fixture, first) == 0)

            let result = fixture.ctl("--json", "reload", "--instance", first)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.object["instances"] as? [String] == [first])
            #expect(fixture.ctl("clock", "advance", "0s").status == 0)
            #expect(budgetUsed(fixture, first) == 1)
            #expect(budgetUsed(fixture, second) == 0)

            // The client library, and kinds mixed with instances: each instance once.
            let center = WidgetCenter(socketPath: fixture.socketPath)
            #expect(fixture.ctl("clock", "advance", "10s").status == 0)
            #expect(try center.requestReload(ofInstances: [second]) == [second])
            #expect(fixture.ctl("clock", "advance", "0s").status == 0)
            #expect(budgetUsed(fixture, second) == 1)
            #expect(budgetUsed(fixture, first) == 1)
            let mixed = fixture.ctl("--json", "reload", "test.counter", "--instance", first)
            #expect((mixed.object["instances"] as? [String])?.sorted() == [first, second].sorted())
        }

        @Test func anUnknownOrPushOnlyInstanceRefusesTheWholeRequest() throws {
            let fixture = try DaemonFixture()
            try fixture.counterWidget()
            try fixture.descriptor("test.pushed", exec: nil)
            try fixture.start()
            let counter = try fixture.add("test.counter")
            let pushed = try fixture.add("test.pushed")
            #expect(fixture.ctl("clock", "advance", "30s").status == 0)
            let before = schedule(fixture)

            let unknown = fixture.ctl("reload", "--instance", counter, "w-nope")
            #expect(unknown.status != 0)
            #expect(unknown.stderr.contains("w-nope"), "\(unknown.stderr)")
            let pushOnly = fixture.ctl("reload", "--instance", counter, pushed)
            #expect(pushOnly.status != 0)
            #expect(
                pushOnly.stderr.contains("params.instances[1]: \(pushed) is of kind test.pushed, which has no provider"),
                "\(pushOnly.stderr)")
            #expect(schedule(fixture) == before)
            #expect(budgetUsed(fixture, counter) == 0)

            let nothing = fixture.ctl("reload")
            #expect(nothing.status != 0)
            #expect(nothing.stderr.contains("name one or more KINDs or --instance IDs, or give --all"), "\(nothing.stderr)")
        }
    }
}
