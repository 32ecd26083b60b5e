import Foundation
import Testing
import WidgetCore
import WidgetProtocol
@testable import WidgetDaemon
@testable import WidgetTestSupport

/// Requests through the engine as the socket hands them over, without a socket or a process.
@Suite struct RequestTests {
    @Test func addListAndRemove() async throws {
        let harness = try Harness()
        let added = await harness.call("add", #"{"kind":"k.clock","family":"systemSmall","configuration":{"city":"Oslo"}}"#)
        let id = try #require((added.result as? [String: Any])?["id"] as? String)
        let list = await harness.call("list")
        let instances = list.result as? [[String: Any]] ?? []
        #expect(instances.map { $0["id"] as? String } == [id])
        #expect((instances.first?["configuration"] as? [String: Any])?["city"] as? String == "Oslo")
        #expect((await harness.call("remove", #"{"id":"\#(id)"}"#)).result != nil)
        #expect(((await harness.call("list")).result as? [Any])?.isEmpty == true)
    }

    @Test func failedCommitChangesNothingAndSaysWhy() async throws {
        let harness = try Harness()
        harness.store.setFailWrites(true)
        let added = await harness.call("add", #"{"kind":"k.clock","family":"systemSmall"}"#)
        #expect(added.errorCode == -32005)
        #expect(added.errorMessage?.contains("disk full (simulated)") == true)
        #expect(((await harness.call("list")).result as? [Any])?.isEmpty == true)
        #expect(((await harness.call("schedule")).result as? [Any])?.isEmpty == true)
    }

    /// While writes fail, `status` and STATUS= say so; the first write that works clears it.
    @Test func aStorageFaultShowsInStatusUntilAWriteWorks() async throws {
        let harness = try Harness()
        harness.store.setFailWrites(true)
        _ = await harness.call("add", #"{"kind":"k.clock","family":"systemSmall"}"#)
        let during = (await harness.call("status")).result as? [String: Any]
        #expect(during?["storageError"] as? String == "disk full (simulated)")
        #expect(await harness.engine.statusLine().hasPrefix("state not saved (disk full (simulated)), changes refused; "))
        harness.store.setFailWrites(false)
        _ = await harness.call("add", #"{"kind":"k.clock","family":"systemSmall"}"#)
        let after = (await harness.call("status")).result as? [String: Any]
        #expect(after?["storageError"] == nil)
        #expect(await harness.engine.statusLine().hasPrefix("1 instances"))
    }

    /// Found by the kill campaign: `add` with a stack stored the instance, then the stack in a
    /// second transaction, so a SIGKILL between them left the instance outside its stack.
    @Test func addToAStackIsOneTransaction() async throws {
        let harness = try Harness()
        _ = await harness.call("stack.create", #"{"name":"home"}"#)
        let added = await harness.call("add", #"{"kind":"k.clock","family":"systemSmall","stack":"home"}"#)
        let id = try #require((added.result as? [String: Any])?["id"] as? String)
        let writes = harness.store.applied.filter { changes in
            changes.contains { if case .putInstance(let instance) = $0 { instance.id == id } else { false } }
        }
        #expect(writes.count == 1)
        #expect(writes.first?.contains { if case .putStack(let stack) = $0 { stack.instances == [id] } else { false } } == true)
        let stack = (await harness.call("stack.show", #"{"name":"home"}"#)).result as? [String: Any]
        #expect(stack?["instances"] as? [String] == [id])
        #expect(stack?["top"] as? String == id)
        // A stack that does not exist stores nothing.
        let refused = await harness.call("add", #"{"kind":"k.clock","family":"systemSmall","stack":"nope"}"#)
        #expect(refused.errorCode == -32011)
        #expect(((await harness.call("list")).result as? [Any])?.count == 1)
    }

    /// A `remove` wrote the stacks that held the instance as they were before it waited on the
    /// store, over a swipe stored meanwhile: the swipe was answered and lost at the next
    /// restart. Now the remove waits for the swipe's plan (both touch the stack) and is
    /// planned again once it is applied.
    @Test func removeDoesNotOverwriteAConcurrentStackChange() async throws {
        let harness = try Harness()
        _ = await harness.call("stack.create", #"{"name":"home"}"#)
        var ids: [String] = []
        for _ in 0..<3 { ids.append(try await harness.add(stack: "home")) }
        harness.store.pauseWrites()
        let (first, second) = (ids[0], ids[1])
        async let swipe = harness.call("stack.swipe", #"{"name":"home","instance":"\#(second)"}"#)
        while harness.store.parkedWrites < 1 { await Task.yield() }
        async let remove = harness.call("remove", #"{"id":"\#(first)"}"#)
        while await harness.inspect({ $0.commits.flight.waiting.count }) < 1 { await Task.yield() }
        #expect(harness.store.parkedWrites == 1, "the remove waits for the swipe, not for the store")
        harness.store.resumeWrites()
        #expect(await swipe.result != nil)
        #expect(await remove.result != nil)
        let stored = harness.store.applied.joined().compactMap { change -> StackState? in
            if case .putStack(let state) = change { state } else { nil }
        }.last
        #expect(stored?.instances == [ids[1], ids[2]])
        #expect(stored?.userChoice == ids[1])
    }

    @Test func providerRequestsCarryTheVirtualNow() async throws {
        let harness = try Harness()
        _ = await harness.call("add", #"{"kind":"k.clock","family":"systemSmall"}"#)
        _ = await harness.call("clock.advance", #"{"seconds":0}"#)
        _ = await harness.call("reloadAllTimelines", #"{"userInitiated":true}"#)
        _ = await harness.call("clock.advance", #"{"seconds":3600}"#)
        #expect(harness.runner.requestedNows() == ["2026-01-05T08:00:00Z", "2026-01-05T08:00:00Z"])
        let reload = await harness.call("reloadAllTimelines", #"{"userInitiated":true}"#)
        #expect((reload.result as? [String: Any])?["instances"] as? [String] != nil)
        _ = await harness.call("clock.advance", #"{"seconds":0}"#)
        #expect(harness.runner.requestedNows().last == "2026-01-05T09:00:00Z")
    }

    @Test func answersKeepTheRequestID() async throws {
        let harness = try Harness()
        let text = await harness.send(line: #"{"jsonrpc":"2.0","id":"abc","method":"ping"}"#)
        #expect(text["id"] as? String == "abc")
        let nullID = await harness.send(line: #"{"jsonrpc":"2.0","id":null,"method":"ping"}"#)
        #expect(nullID["id"] is NSNull)
        #expect(nullID.result != nil)
        let notification = await harness.answer(line: #"{"jsonrpc":"2.0","method":"ping"}"#)
        #expect(notification == nil)
    }

    @Test func clockMovesOnlyWhenVirtual() async throws {
        let harness = try Harness()
        let moved = await harness.call("clock.set", #"{"date":"2026-01-06T00:00:00+09:00"}"#)
        #expect((moved.result as? [String: Any])?["now"] as? String == "2026-01-05T15:00:00Z")
        let negative = await harness.call("clock.advance", #"{"seconds":-5}"#)
        #expect(negative.errorCode == -32602)
    }

    /// Far past year 9999 adding seconds gives the same instant or infinity back, which once
    /// reached `simulate`'s answer as NaN: the virtual clock stays within years 1 to 9999.
    @Test func theVirtualClockStaysWithinYearsOneTo9999() async throws {
        let harness = try Harness()
        for seconds in ["1.7976931348623157e308", "1e300", "253402300800"] {
            let far = await harness.call("clock.advance", #"{"seconds":\#(seconds)}"#)
            #expect(far.errorCode == -32602, "advance by \(seconds)")
        }
        let early = await harness.call("clock.set", #"{"date":"0000-12-31T23:59:59Z"}"#)
        #expect(early.errorCode == -32602)
        let now = await harness.call("clock")
        #expect((now.result as? [String: Any])?["now"] as? String == "2026-01-05T08:00:00Z")
        let last = await harness.call("clock.set", #"{"date":"9999-12-31T23:59:59Z"}"#)
        #expect((last.result as? [String: Any])?["now"] as? String == "9999-12-31T23:59:59Z")
        let past = await harness.call("clock.advance", #"{"seconds":1}"#)
        #expect(past.errorCode == -32602)
        let simulate = await harness.call("simulate", #"{"hours":2}"#)
        #expect(simulate.result != nil)
    }
}

/// Reload requests that merge into one already stored and waiting write nothing; one that
/// changes what is waiting, or arrives after a launch took the request, is stored again.
@Suite struct ReloadRequestWriteTests {
    func putRequests(_ harness: Harness) -> [(String, ReloadReason)] {
        harness.store.applied.joined().compactMap { change in
            if case .putRequest(let id, let reason, _, _) = change { return (id, reason) }
            return nil
        }
    }

    @Test func repeatedRequestsAreStoredOnce() async throws {
        let harness = try Harness()
        let id = try await harness.add()  // its first load runs before the answer
        #expect(putRequests(harness).map(\.1) == [.initial])
        #expect(harness.runner.launches == 1)

        // Allowed at once: stored, then carried out before the answer.
        _ = await harness.call("reloadTimelines", #"{"kinds":["k.clock"]}"#)
        #expect(putRequests(harness).map(\.1) == [.initial, .requested])
        #expect(harness.runner.launches == 2)
        // Now the minimum spacing defers them: the first is stored, the rest merge into it.
        for _ in 0..<5 { _ = await harness.call("reloadTimelines", #"{"kinds":["k.clock"]}"#) }
        #expect(putRequests(harness).map(\.1) == [.initial, .requested, .requested])
        #expect(harness.runner.launches == 2)

        // The launch consumes the stored request; the next request is stored anew.
        _ = await harness.call("clock.advance", #"{"seconds":300}"#)
        #expect(harness.runner.launches == 3)
        _ = await harness.call("reloadTimelines", #"{"kinds":["k.clock"]}"#)
        #expect(putRequests(harness).map(\.0) == [id, id, id, id])
    }
}
