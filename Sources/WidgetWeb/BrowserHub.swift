import Synchronization
import WidgetCore

/// The browsers connected to `/events`. Each gets every daemon event as a server-sent event
/// and reports what its page shows; what all of them show together is what the host reports
/// to widgetd, so an instance no browser shows is never reported as visible.
final class BrowserHub: Sendable {
    private struct Client {
        var events: AsyncStream<String>.Continuation
        var shown: Set<InstanceID> = []
    }

    private struct State {
        var nextID = 1
        var clients: [Int: Client] = [:]
        var closed = false
    }

    private let state = Mutex(State())
    /// Called with the union of what the browsers show whenever it changes.
    private let shownChanged: @Sendable ([InstanceID]) -> Void

    init(shownChanged: @escaping @Sendable ([InstanceID]) -> Void) {
        self.shownChanged = shownChanged
    }

    /// A new browser: its id (for its `visible` reports) and its events, starting with `hello`.
    func connect() -> (id: Int, events: AsyncStream<String>) {
        // A browser that stops reading loses the oldest events, not the host's memory; its
        // next event makes it read the whole page again anyway.
        let (stream, continuation) = AsyncStream<String>.makeStream(bufferingPolicy: .bufferingNewest(64))
        let id: Int? = state.withLock { state in
            guard !state.closed else { return nil }
            let id = state.nextID
            state.nextID += 1
            state.clients[id] = Client(events: continuation)
            return id
        }
        guard let id else {
            continuation.finish()
            return (0, stream)
        }
        continuation.yield(ServerSentEvent.text("hello", #"{"client":\#(id)}"#))
        return (id, stream)
    }

    /// The browser went away: what only it showed is shown no more.
    func disconnect(_ id: Int) {
        let change = state.withLock { state -> [InstanceID]? in
            guard let client = state.clients.removeValue(forKey: id) else { return nil }
            client.events.finish()
            return client.shown.isEmpty ? nil : Self.union(state.clients)
        }
        if let change { shownChanged(change) }
    }

    /// A browser's report of the instances its page shows now. False: no such browser.
    func show(_ instances: Set<InstanceID>, client id: Int) -> Bool {
        let outcome = state.withLock { state -> (known: Bool, change: [InstanceID]?) in
            guard state.clients[id] != nil else { return (false, nil) }
            let before = Self.union(state.clients)
            state.clients[id]!.shown = instances
            let after = Self.union(state.clients)
            return (true, after == before ? nil : after)
        }
        if let change = outcome.change { shownChanged(change) }
        return outcome.known
    }

    /// What the browsers show together now.
    var shown: [InstanceID] { state.withLock { Self.union($0.clients) } }

    var clientCount: Int { state.withLock { $0.clients.count } }

    func broadcast(_ event: String) {
        state.withLock { state in
            for client in state.clients.values { client.events.yield(event) }
        }
    }

    /// A comment to one browser, so that a connection dropped without a word is noticed.
    func keepAlive(_ id: Int) {
        state.withLock { state in _ = state.clients[id]?.events.yield(ServerSentEvent.keepAlive) }
    }

    /// Ends every stream (the host is stopping) and takes no new browser.
    func close() {
        state.withLock { state in
            state.closed = true
            for client in state.clients.values { client.events.finish() }
            state.clients = [:]
        }
    }

    private static func union(_ clients: [Int: Client]) -> [InstanceID] {
        clients.values.reduce(into: Set<InstanceID>()) { $0.formUnion($1.shown) }.sorted()
    }
}

/// The text of one server-sent event.
enum ServerSentEvent {
    static func text(_ name: String, _ data: String) -> String {
        // `data` is one line of JSON: a newline in it would end the event early.
        "event: \(name)\ndata: \(data)\n\n"
    }

    /// A comment line, which the browser ignores: a write that finds out the browser left.
    static let keepAlive = ": keep-alive\n\n"
}
