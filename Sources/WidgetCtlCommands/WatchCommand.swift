import ArgumentParser
import Foundation
import WidgetCore
import WidgetProtocol
import WidgetdClient

struct WatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch", abstract: "Stream events (entry changes, reloads, rotations, stack changes, descriptors read) until interrupted.",
        discussion: """
            One line per event. With --json each line is the daemon's notification as sent, \
            {"jsonrpc": "2.0", "method": "event", "params": {"type": ..., "date": ..., ...}}, \
            flushed at once so a host reading a pipe sees every event when it happens.
            """)
    @OptionGroup var global: GlobalOptions

    func run() throws {
        let connection = try global.connect()
        do {
            try connection.stream(.subscribe, EmptyParams()) { line in
                if global.json {
                    print(String(decoding: line, as: UTF8.self))
                } else if let event = try? WidgetJSON.decoder.decode(EventNotification.self, from: line).params {
                    print(Self.describe(event))
                }
                fflush(nil)  // every stream: a host reading a pipe sees each event at once
            }
        } catch {
            throw CtlFailure(error)
        }
    }

    static func describe(_ event: WidgetEvent) -> String {
        let date = Show.date(event.date)
        switch event.type {
        case .entryChange:
            return "\(date)  entry     \(event.instance ?? "-")  \(Show.json(event.entry?.content, limit: 50))"
        case .reload:
            return "\(date)  reload    \(event.kind ?? "-")  \(event.instances?.joined(separator: ",") ?? "")"
        case .reloadFailed:
            return "\(date)  failed    \(event.kind ?? "-")  \(event.instances?.joined(separator: ",") ?? "")  \(event.error ?? "")"
        case .rotation:
            guard let decision = event.decision else { return "\(date)  rotation" }
            let outcome = decision.to.map { "→ \($0)" } ?? "held \(decision.candidate)"
            return "\(date)  rotation  \(decision.stack)  \(decision.from ?? "-") \(outcome) (\(decision.reason.rawValue))"
        case .stack:
            if let stack = event.stack { return "\(date)  stack     \(stack.name)  top \(stack.top ?? "-")" }
            return "\(date)  stack     \(event.stackName ?? "-") removed"
        case .widgets:
            guard let changes = event.widgets else { return "\(date)  widgets" }
            func list(_ kinds: [String]) -> String { kinds.isEmpty ? "-" : kinds.joined(separator: ",") }
            return "\(date)  widgets   added \(list(changes.added))  changed \(list(changes.changed))  removed \(list(changes.removed))  skipped \(changes.problems.count)"
        }
    }
}
