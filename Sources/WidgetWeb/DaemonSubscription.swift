import Foundation
import ServiceLifecycle
import WidgetCore
import WidgetProtocol
import WidgetdClient

/// The host's one `subscribe` connection, fanned out to every browser. It reads on a thread
/// of its own (the client library blocks) and connects again when widgetd goes away, telling
/// the browsers (event `daemon`) so they show it and read the page again once it is back.
final class DaemonSubscription: Service, Sendable {
    private let socketPath: String?
    private let hub: BrowserHub
    private let reporter: VisibilityReporter

    init(socketPath: String?, hub: BrowserHub, reporter: VisibilityReporter) {
        self.socketPath = socketPath
        self.hub = hub
        self.reporter = reporter
    }

    func run() async {
        let thread = Thread { [self] in readForever() }
        thread.name = "widgetd-web subscription"
        thread.start()
        // The thread blocks in a read; it ends with the process.
        try? await gracefulShutdown()
        hub.close()
    }

    private func readForever() {
        var lastProblem: String?
        while true {
            let (connected, problem) = follow(after: lastProblem)
            if connected { lastProblem = nil }
            if problem != lastProblem {
                lastProblem = problem
                FileHandle.standardError.write(Data("widgetd-web: \(ControlEscaping.escaped(problem)); trying again every second\n".utf8))
                announce(connected: false, problem)
            }
            sleep(1)
        }
    }

    /// One connection, from connecting until it is lost: whether it connected, and why it ended.
    /// Kept out of `readForever`: with the client's endless read inlined inside the endless
    /// retry, the optimizer's loop-invariant code motion never finishes (Swift 6.3, -O).
    @inline(never)
    private func follow(after lastProblem: String?) -> (connected: Bool, problem: String) {
        var connected = false
        do {
            let connection = try WidgetdConnection(path: socketPath)
            connected = true
            if lastProblem != nil { announce(connected: true, nil) }
            try connection.stream(Methods.Subscribe.self, EmptyParams()) { line in
                if let event = Self.event(line) { hub.broadcast(event) }
            }
            return (connected, "the subscription ended")
        } catch {
            return (connected, error.description)
        }
    }

    /// Tells the browsers whether widgetd is there; once it is back, what they show is
    /// reported again (a restarted widgetd has not heard it).
    private func announce(connected: Bool, _ problem: String?) {
        var fields: [String: JSONValue] = ["connected": .bool(connected)]
        if let problem { fields["problem"] = .string(problem) }
        hub.broadcast(ServerSentEvent.text("daemon", JSONValue.object(fields).compactText))
        if connected { reporter.submit(hub.shown) }
    }

    /// A notification line as a server-sent event named by its type (`entryChange`,
    /// `rotation`, `invalidated`, ...), its data the event's params; nil for anything else.
    static func event(_ line: Data) -> String? {
        guard let message = try? WidgetJSON.decoder.decode(JSONValue.self, from: line), case .object(let fields) = message,
            fields["method"] == .string("event"), let params = fields["params"], case .object(let event) = params,
            case .string(let type) = event["type"], type.allSatisfy({ $0.isLetter || $0.isNumber })
        else { return nil }
        return ServerSentEvent.text(type, params.compactText)
    }
}
