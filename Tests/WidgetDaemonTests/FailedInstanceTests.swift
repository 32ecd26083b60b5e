import Foundation
import Testing
import WidgetCore
import WidgetProtocol
@testable import WidgetDaemon
@testable import WidgetTestSupport

/// An instance a stored row of which does not decode: listed as failed with why,
/// refused every change but `remove`, and removable only by who may remove its kind's instances.
@Suite struct FailedInstanceTests {
    static let reason = "stored row does not decode: instance id = 'deadbeef': configuration is not a JSON object"

    /// `AccessTests`' engine, restored from a state with one failed instance of alice's kind.
    static func harness() async throws -> Harness {
        let harness = try AccessTests.harness()
        var persisted = PersistedState()
        persisted.failedInstances = [
            FailedInstance(id: "deadbeef", kind: "k.alice", family: .systemSmall, created: Harness.start, reason: reason)
        ]
        persisted.quarantined = [QuarantinedRow(table: "instance", key: "id = 'deadbeef'", reason: "configuration is not a JSON object", advice: "")]
        let stored = persisted
        await harness.inspect { engine in
            _ = engine.state.restore(stored, at: Harness.start)
            engine.commits.rowsLeftOut = 1
        }
        return harness
    }

    @Test func itIsListedAsFailedAndCountedInStatus() async throws {
        let harness = try await Self.harness()
        let listed = (await harness.call("list", as: AccessTests.other)).result as? [[String: Any]] ?? []
        #expect(listed.count == 1)
        #expect(listed.first?["id"] as? String == "deadbeef")
        #expect(listed.first?["kind"] as? String == "k.alice")
        #expect(listed.first?["failure"] as? String == Self.reason)
        let timeline = (await harness.call("timeline", #"{"id":"deadbeef"}"#)).result as? [String: Any]
        #expect(timeline?["failure"] as? String == Self.reason)
        #expect(timeline?["lastError"] as? String == Self.reason)
        let status = (await harness.call("status")).result as? [String: Any]
        #expect(status?["failedInstances"] as? Int == 1)
        #expect(status?["rowsLeftOut"] as? Int == 1)
        #expect(status?["instances"] as? Int == 0)
    }

    @Test func everyChangeButRemoveIsRefusedSayingWhy() async throws {
        let harness = try await Self.harness()
        let configure = await harness.call("configure", #"{"id":"deadbeef","configuration":{}}"#)
        #expect(configure.errorCode == -32002)
        #expect(configure.errorMessage?.contains("instance 'deadbeef' is not loaded: \(Self.reason)") == true, "\(configure)")
        #expect(configure.errorMessage?.contains("'widgetctl remove deadbeef'") == true)
        let timeline = #"{"entries":[],"policy":"never"}"#
        #expect((await harness.call("push", #"{"id":"deadbeef","timeline":\#(timeline)}"#)).errorCode == -32002)
        #expect(harness.store.applied.isEmpty)
    }

    @Test func onlyWhoMayRemoveItsKindsInstancesRemovesIt() async throws {
        let harness = try await Self.harness()
        #expect((await harness.call("remove", #"{"id":"deadbeef"}"#, as: AccessTests.other)).errorCode == -32013)
        // A method decided by kind treats it as an instance of its stored kind: refused to a
        // caller who may not act on that kind, before anything about the instance is said.
        let timeline = #"{"entries":[],"policy":"never"}"#
        let push = #"{"id":"deadbeef","timeline":\#(timeline)}"#
        #expect((await harness.call("push", push, as: AccessTests.other)).errorCode == -32013)
        #expect((await harness.call("push", push, as: AccessTests.alice)).errorCode == -32002)
        #expect(harness.store.applied.isEmpty)
        let removed = await harness.call("remove", #"{"id":"deadbeef"}"#, as: AccessTests.host)
        #expect((removed.result as? [String: Any])?["removed"] as? String == "deadbeef", "\(removed)")
        let deleted = harness.store.applied.flatMap { $0 }.contains { change in
            if case .deleteInstance("deadbeef") = change { return true }
            return false
        }
        #expect(deleted)
        #expect(((await harness.call("list")).result as? [Any])?.isEmpty == true)
        #expect((await harness.call("remove", #"{"id":"deadbeef"}"#, as: AccessTests.host)).errorCode == -32002)
    }
}
