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

            With --format waybar or --format eww and --stack NAME it is a bar module instead: \
            one JSON line with text, tooltip, class and alt for the stack's top now, then one \
            each time that changes (rotation, swipe, a new timeline, an entry's date passing, \
            the instance removed). It keeps running when the daemon goes away: a line with \
            class "disconnected", then it connects again. See docs/hosts.md.
            """)
    @OptionGroup var global: GlobalOptions

    @Option(help: "Write for a bar: waybar (Waybar custom module, return-type json) or eww (deflisten). Needs --stack.")
    var format: BarFormat?

    @Option(help: "The stack a bar module shows (with --format).", completion: Completions.stacks)
    var stack: String?

    func validate() throws {
        switch (format, stack) {
        case (let format?, nil): throw ValidationError("--format \(format.rawValue) needs --stack NAME")
        case (nil, _?): throw ValidationError("--stack is for a bar module: give --format waybar or --format eww")
        case (_?, _?) where global.json: throw ValidationError("--json and --format are different outputs: give one")
        default: break
        }
    }

    func run() throws {
        if let format, let stack {
            BarAdapter(stackName: stack, format: format, socket: global.socket).run()
        }
        let connection = try global.connect()
        do {
            try connection.stream(Methods.Subscribe.self, EmptyParams()) { line in
                if global.json {
                    print(String(decoding: line, as: UTF8.self))
                } else if let event = try? WidgetJSON.decoder.decode(EventNotification.self, from: line).params {
                    Terminal.print(Self.describe(event))
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
        case .invalidated:
            return "\(date)  invalid   \(event.instance ?? "-")  action \(event.action ?? "-")"
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

extension BarFormat: ExpressibleByArgument {}
