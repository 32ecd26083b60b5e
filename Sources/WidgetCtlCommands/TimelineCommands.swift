import ArgumentParser
import Foundation
import WidgetCore
import WidgetDisplay
import WidgetProtocol

struct TimelineCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "timeline", abstract: "An instance's entries, current entry, policy and next reload.")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "Instance id.", completion: Completions.instances) var id: String

    func run() throws {
        let result = try global.call(Methods.WidgetTimeline.self, InstanceParams(id: id))
        global.emit(result) {
            Terminal.print("\(result.instance)  \(result.kind)  \(result.family.rawValue)")
            if let failure = result.failure {
                Terminal.print("failed: \(failure)")
                Terminal.print("not loaded; 'widgetctl remove \(result.instance)' removes it")
                return
            }
            guard let policy = result.policy else {
                Terminal.print("no timeline yet: the host shows the placeholder")
                if let error = result.lastError { Terminal.print("last reload failed: \(error)") }
                return
            }
            Terminal.print("policy: \(Self.describe(policy))   received: \(Show.date(result.receivedAt))")
            if let reload = result.nextReload {
                Terminal.print("next reload: \(Show.date(reload.due)) (\(reload.reason.rawValue)\(reload.deferredByBudget ? ", deferred by budget from \(Show.date(reload.wanted))" : ""))")
            } else {
                Terminal.print("next reload: none")
            }
            if let error = result.lastError { Terminal.print("last reload failed: \(error)") }
            if result.invalidated == true { Terminal.print("invalidated: an action was performed; the reload after it has not ended") }
            if let actions = result.currentEntry?.actions, !actions.isEmpty {
                Terminal.print("actions: " + actions.map { "\($0.id) (\($0.title): \($0.intent.type))" }.joined(separator: ", "))
            }
            var table = Table("", "DATE", "CONTENT", "RELEVANCE")
            let now = LiveText.now(global, for: result.entries.map(\.content))
            for (index, entry) in result.entries.enumerated() {
                let relevance = entry.relevance.map(Show.relevance) ?? "-"
                table.add(index == result.currentIndex ? "▶" : " ", Show.date(entry.date), Show.json(LiveText.content(entry.content, now: now)), relevance)
            }
            table.print()
        }
    }

    static func describe(_ policy: ReloadPolicy) -> String {
        switch policy {
        case .atEnd: "atEnd"
        case .never: "never"
        case .after(let date): "after \(Show.date(date))"
        }
    }
}

struct PushCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "push", abstract: "Install a timeline (Timeline JSON) for an instance.")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "Instance id.", completion: Completions.instances) var id: String
    @Argument(help: "Timeline JSON file, or - for stdin.") var file: String

    struct RawPush: Encodable {
        var id: String
        var timeline: JSONValue
    }

    func run() throws {
        let data = try InputFile.read(file)
        guard let timeline = try? WidgetJSON.decoder.decode(JSONValue.self, from: data) else {
            throw CtlFailure.usage("\(file == "-" ? "stdin" : file) is not JSON")
        }
        let result = try global.call(Methods.Push.self, sending: RawPush(id: id, timeline: timeline))
        let problems = Self.liveDateProblems(timeline)
        for problem in problems.prefix(Self.shownProblems) { Terminal.printError("widgetctl: warning: \(Terminal.text(problem))") }
        if problems.count > Self.shownProblems {
            Terminal.printError("widgetctl: warning: and \(problems.count - Self.shownProblems) more values that are not live dates")
        }
        global.emit(result) {
            Terminal.print("\(result.instance): \(result.entries) entries installed; next reload \(Show.date(result.nextReload))")
        }
    }
}

extension PushCommand {
    /// A timeline of many entries can repeat one mistake in each: the first few say enough.
    static let shownProblems = 10

    /// Each value of the entries' content that looks meant as a live date but is not one:
    /// widgetd installs it as ordinary content, and hosts show it as it is.
    static func liveDateProblems(_ timeline: JSONValue) -> [String] {
        guard case .object(let fields) = timeline, case .array(let entries)? = fields["entries"] else { return [] }
        return entries.enumerated().flatMap { index, entry -> [String] in
            guard case .object(let entry) = entry, let content = entry["content"] else { return [] }
            return LiveDate.problems(in: content, path: "entries[\(index)].content")
        }
    }
}
