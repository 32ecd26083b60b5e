import Foundation
import WidgetCore
import WidgetProtocol
import WidgetdClient

/// `watch --format waybar|eww --stack NAME`: a bar module's persistent `exec`. Prints a line
/// for the stack's state, then a line each time it changes, and never exits on its own: when
/// the daemon goes away it says so in a line and connects again, waiting longer after each
/// failed attempt, for as long as the bar runs it.
struct BarAdapter {
    var stackName: String
    var format: BarFormat
    var socket: String?

    /// The first wait after a lost connection, and the longest: a restarted daemon is seen
    /// within a few seconds, and a daemon gone for good costs one connect attempt per `longest`.
    static let firstWait = 0.25
    static let longestWait = 5.0

    func run() -> Never {
        var output = BarOutput(format: format)
        var wait = Self.firstWait
        while true {
            var view = BarView(stackName: stackName, format: format)
            do {
                try session(&view, &output) { wait = Self.firstWait }
            } catch {
                output.emit(view.disconnected(Self.reason(error)))
            }
            Thread.sleep(forTimeInterval: wait)
            wait = min(wait * 2, Self.longestWait)
        }
    }

    /// One connection's life: subscribe first, then read the state, so no change falls
    /// between the two; then follow the events. Returns only by throwing.
    private func session(
        _ view: inout BarView, _ output: inout BarOutput, connected: () -> Void
    ) throws(WidgetdClientError) -> Never {
        let queries = try WidgetdConnection(path: socket)
        let events = try WidgetdConnection(path: queries.path)
        try events.subscribe()
        try view.load(queries)
        var clock = try BarClock.read(queries)
        connected()
        var wake: Date?
        var changed = true
        while true {
            if changed {
                // A timer only while the line shows a live date, at its next change: a bar
                // showing none waits on the socket alone, as before.
                let (line, next) = view.rendered(now: clock.now())
                output.emit(line)
                wake = next
            }
            changed = true
            guard let line = try events.nextEvent(within: wake.map { $0.timeIntervalSince(clock.now()) }) else { continue }
            guard view.mayConcern(line), let event = try? WidgetJSON.decoder.decode(EventNotification.self, from: line).params else {
                changed = false
                continue
            }
            try view.apply(event, queries)
            if clock.isVirtual { clock = try BarClock.read(queries) }
        }
    }

    /// Short, for a tooltip: what went wrong, without the advice meant for a terminal.
    static func reason(_ error: WidgetdClientError) -> String {
        switch error {
        case .cannotConnect(let path, _): "cannot reach \(path)"
        case .permissionDenied(let path, _): "no permission to use \(path)"
        case .connectionLost: "connection lost"
        case .daemon(let error): error.message
        case .badResponse(let reason): reason
        }
    }
}

/// The daemon's time as a bar module reads it, so a live date reads as the daemon's widgets
/// do: the real clock, or a virtual one (`--clock virtual:`) running on from its last reading.
struct BarClock {
    var offset: TimeInterval
    var isVirtual: Bool
    var realNow: () -> Date = Date.init

    func now() -> Date { realNow().addingTimeInterval(offset) }

    static func read(_ queries: WidgetdConnection) throws(WidgetdClientError) -> BarClock {
        let info = try queries.call(Methods.Clock.self)
        let virtual = info.mode != "real"
        return BarClock(offset: virtual ? info.now.timeIntervalSince(Date()) : 0, isVirtual: virtual)
    }
}

/// Standard output of a bar module: a line only when it differs from the last, each written
/// at once with no buffer between (the bar must see a change when it happens).
struct BarOutput {
    let format: BarFormat
    private var last: BarLine?

    init(format: BarFormat) {
        self.format = format
    }

    mutating func emit(_ line: BarLine) {
        guard line != last else { return }
        last = line
        let bytes = Array((line.encoded(for: format) + "\n").utf8)
        var offset = 0
        while offset < bytes.count {
            let count = bytes[offset...].withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            // The bar closed the pipe: it no longer runs this module.
            guard count > 0 else { exit(0) }
            offset += count
        }
    }
}
