import Foundation
import Testing
import WidgetCore
import WidgetProtocol
@testable import WidgetDaemon

/// The request handlers through the router, without a socket or a process.
@Suite struct RouterTests {
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
        await harness.store.setFailWrites(true)
        let added = await harness.call("add", #"{"kind":"k.clock","family":"systemSmall"}"#)
        #expect(added.errorCode == -32005)
        #expect(added.errorMessage?.contains("disk full (simulated)") == true)
        #expect(((await harness.call("list")).result as? [Any])?.isEmpty == true)
        #expect(((await harness.call("schedule")).result as? [Any])?.isEmpty == true)
    }

    /// While writes fail, `status` and STATUS= say so; the first write that works clears it.
    @Test func aStorageFaultShowsInStatusUntilAWriteWorks() async throws {
        let harness = try Harness()
        await harness.store.setFailWrites(true)
        _ = await harness.call("add", #"{"kind":"k.clock","family":"systemSmall"}"#)
        let during = (await harness.call("status")).result as? [String: Any]
        #expect(during?["storageError"] as? String == "disk full (simulated)")
        #expect(await harness.engine.statusLine().hasPrefix("state not saved (disk full (simulated)), changes refused; "))
        await harness.store.setFailWrites(false)
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
        let writes = await harness.store.applied.filter { changes in
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
    /// store, over a swipe stored meanwhile: the swipe was answered and lost at the next restart.
    @Test func removeDoesNotOverwriteAConcurrentStackChange() async throws {
        let harness = try Harness()
        _ = await harness.call("stack.create", #"{"name":"home"}"#)
        var ids: [String] = []
        for _ in 0..<3 {
            let added = await harness.call("add", #"{"kind":"k.clock","family":"systemSmall","stack":"home"}"#)
            ids.append(try #require((added.result as? [String: Any])?["id"] as? String))
        }
        await harness.store.pauseWrites()
        let engine = harness.engine
        let (first, second) = (ids[0], ids[1])
        let swipe = Task { (try? await engine.swipe(StackSwipeParams(name: "home", instance: second))) != nil }
        while await harness.store.parkedWrites < 1 { await Task.yield() }
        let remove = Task { (try? await engine.remove(InstanceParams(id: first))) != nil }
        // The remove either waits for the stack's lock or reaches the store.
        let lock = Engine.stackLockKey("home")
        while await harness.store.parkedWrites < 2, await harness.engine.instanceLocks[lock]?.count ?? 0 < 1 {
            await Task.yield()
        }
        await harness.store.resumeWrites()
        #expect(await swipe.value)
        #expect(await remove.value)
        let stored = await harness.store.applied.joined().compactMap { change -> StackState? in
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
        #expect(await harness.runner.requestedNows() == ["2026-01-05T08:00:00Z", "2026-01-05T08:00:00Z"])
        let reload = await harness.call("reloadAllTimelines", #"{"userInitiated":true}"#)
        #expect((reload.result as? [String: Any])?["instances"] as? [String] != nil)
        _ = await harness.call("clock.advance", #"{"seconds":0}"#)
        #expect(await harness.runner.requestedNows().last == "2026-01-05T09:00:00Z")
    }

    @Test func answersKeepTheRequestID() async throws {
        let harness = try Harness()
        let text = await harness.send(line: #"{"jsonrpc":"2.0","id":"abc","method":"ping"}"#)
        #expect(text["id"] as? String == "abc")
        let nullID = await harness.send(line: #"{"jsonrpc":"2.0","id":null,"method":"ping"}"#)
        #expect(nullID["id"] is NSNull)
        #expect(nullID.result != nil)
        let notification = await harness.router.handle(Data(#"{"jsonrpc":"2.0","method":"ping"}"#.utf8))
        #expect(notification == nil)
    }

    @Test func clockMovesOnlyWhenVirtual() async throws {
        let harness = try Harness()
        let moved = await harness.call("clock.set", #"{"date":"2026-01-06T00:00:00+09:00"}"#)
        #expect((moved.result as? [String: Any])?["now"] as? String == "2026-01-05T15:00:00Z")
        let negative = await harness.call("clock.advance", #"{"seconds":-5}"#)
        #expect(negative.errorCode == -32602)
    }
}

/// Reload requests that merge into one already stored and waiting write nothing; one that
/// changes what is waiting, or arrives after a launch took the request, is stored again.
@Suite struct ReloadRequestWriteTests {
    func putRequests(_ harness: Harness) async -> [(String, ReloadReason)] {
        await harness.store.applied.joined().compactMap { change in
            if case .putRequest(let id, let reason, _, _) = change { return (id, reason) }
            return nil
        }
    }

    @Test func repeatedRequestsAreStoredOnce() async throws {
        let harness = try Harness()
        let added = await harness.call("add", #"{"kind":"k.clock","family":"systemSmall"}"#)
        let id = try #require((added.result as? [String: Any])?["id"] as? String)
        _ = await harness.call("clock.advance", #"{"seconds":0}"#)  // the initial load
        #expect(await putRequests(harness).map(\.1) == [.initial])

        for _ in 0..<5 { _ = await harness.call("reloadTimelines", #"{"kinds":["k.clock"]}"#) }
        #expect(await putRequests(harness).map(\.1) == [.initial, .requested])
        // A user-initiated request is exempt from the budget: it changes what waits, so it is stored.
        _ = await harness.call("reloadTimelines", #"{"kinds":["k.clock"],"userInitiated":true}"#)
        #expect(await putRequests(harness).map(\.1) == [.initial, .requested, .userInitiated])
        _ = await harness.call("reloadTimelines", #"{"kinds":["k.clock"],"userInitiated":true}"#)
        #expect(await putRequests(harness).count == 3)

        // The launch consumes the stored request; the next request is stored anew.
        _ = await harness.call("clock.advance", #"{"seconds":1}"#)
        _ = await harness.call("reloadTimelines", #"{"kinds":["k.clock"]}"#)
        #expect(await putRequests(harness).map(\.0) == [id, id, id, id])
    }
}
