import Foundation
import WidgetCore
import WidgetProtocol
import WidgetStore

extension Engine {
    /// Stack changes and their evaluation share one lock per stack, so an evaluation never
    /// writes back a state a request has just changed.
    static func stackLockKey(_ name: String) -> String { "stack\u{0}" + name }

    func stack(_ name: String) throws(RPCError) -> StackState {
        guard let stack = stacks[name] else { throw .unknownStack(name) }
        return stack
    }

    public func createStack(_ params: StackCreateParams) async throws(RPCError) -> StackInfo {
        let name = params.name.trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty, name.count <= 100, !name.contains("\u{0}") else {
            throw .invalidParams("params.name: a stack name is 1-100 characters")
        }
        return try await withInstanceLock(Self.stackLockKey(name)) { () async throws(RPCError) -> StackInfo in
            guard stacks[name] == nil else { throw .stackExists(name) }
            try checkRoomForStack()
            let state = StackState(name: name, smartRotate: params.smartRotate ?? true)
            try await commit([.putStack(state)], holding: \.stacks)
            stacks[name] = state
            events.publish(WidgetEvent(type: .stack, date: now, stack: StackInfo(state)))
            logger.info("stack created", metadata: ["stack": "\(name)"])
            return StackInfo(state)
        }
    }

    public func addToStack(_ params: StackAddParams) async throws(RPCError) -> StackInfo {
        try await changeStack(params.name) { state throws(RPCError) in
            for id in params.instances {
                _ = try instance(id)
                guard !state.instances.contains(id) else { throw .invalidParams("params.instances: '\(id)' is already in stack '\(params.name)'") }
                state.instances.append(id)
            }
            try checkStackSize(params.name, holding: state.instances.count)
            if state.top == nil { state.top = state.instances.first }
        }
    }

    /// A stack; showing it counts as showing its top, unless the viewer is not a host (a
    /// read by anyone else changes nothing). `viewer` nil: root or the daemon's user.
    public func showStack(_ params: StackNameParams, viewer: PeerCredentials? = nil) throws(RPCError) -> StackInfo {
        let state = try stack(params.name)
        if viewer.map(accessPolicy.mayManage) ?? true { noteShown(state.top) }
        return StackInfo(state)
    }

    public func listStacks() -> [StackInfo] {
        stacks.values.sorted { $0.name < $1.name }.map(StackInfo.init)
    }

    /// The user picks the top: at once, and Smart Rotate holds off for the user hold.
    public func swipe(_ params: StackSwipeParams) async throws(RPCError) -> StackInfo {
        let now = self.now
        let hold = rotationSettings.userHold
        return try await changeStack(params.name) { state throws(RPCError) in
            guard state.instances.contains(params.instance) else {
                throw .invalidParams("params.instance: '\(params.instance)' is not in stack '\(params.name)'")
            }
            state.swipe(to: params.instance, at: now, hold: hold)
        }
    }

    public func setSmartRotate(_ params: StackSmartRotateParams) async throws(RPCError) -> StackInfo {
        try await changeStack(params.name) { state throws(RPCError) in state.smartRotate = params.on }
    }

    public func removeStack(_ params: StackNameParams) async throws(RPCError) -> RemoveResult {
        try await withInstanceLock(Self.stackLockKey(params.name)) { () async throws(RPCError) -> RemoveResult in
            _ = try stack(params.name)
            try await commit([.deleteStack(params.name)])
            stacks[params.name] = nil
            stackRecheck[params.name] = nil
            events.publish(WidgetEvent(type: .stack, date: now, stackName: params.name))
            logger.info("stack removed", metadata: ["stack": "\(params.name)"])
            return RemoveResult(removed: params.name)
        }
    }

    /// Applies `change` to a stack, stores it, then re-evaluates the stack before answering.
    private func changeStack(
        _ name: String, _ change: (inout StackState) throws(RPCError) -> Void
    ) async throws(RPCError) -> StackInfo {
        try await withInstanceLock(Self.stackLockKey(name)) { () async throws(RPCError) -> Void in
            var state = try stack(name)
            try change(&state)
            try await commit([.putStack(state)])
            // An instance removed while this was being stored does not stay in the stack.
            let live = state.instances.filter { instances[$0] != nil }
            if live != state.instances {
                for gone in state.instances where instances[gone] == nil { state = Self.removing(gone, from: state, at: now) }
                try await commit([.putStack(state)])
            }
            stacks[name] = state
            events.publish(WidgetEvent(type: .stack, date: now, stack: StackInfo(state)))
        }
        await evaluateStack(name)
        // The evaluation may set an earlier re-check (a user hold ending, a relevance lapsing)
        // than the loop sleeps towards.
        scheduleChanged()
        return StackInfo(try stack(name))
    }

    /// Runs `body` holding the locks of `names`, taken in the order given (sorted, so two
    /// callers never wait on each other).
    func withStackLocks<T>(
        _ names: ArraySlice<String>, _ body: () async throws(RPCError) -> T
    ) async throws(RPCError) -> T {
        guard let first = names.first else { return try await body() }
        return try await withInstanceLock(Self.stackLockKey(first)) { () async throws(RPCError) -> T in
            try await withStackLocks(names.dropFirst(), body)
        }
    }

    /// Stacks that contain `id`.
    func stacks(containing id: InstanceID) -> [String] {
        stacks.values.filter { $0.instances.contains(id) }.map(\.name)
    }

    /// A stack without `id`. When it was the top, the next evaluation picks an eligible one.
    static func removing(_ id: InstanceID, from state: StackState, at now: Date) -> StackState {
        var state = state
        state.instances.removeAll { $0 == id }
        if state.userChoice == id { state.userChoice = nil }
        if state.top == id {
            state.top = nil
            state.topSince = now
        }
        return state
    }
}
