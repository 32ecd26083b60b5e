import ArgumentParser
import Foundation
import WidgetProtocol

struct RelevanceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "relevance", abstract: "Ask providers for fresh relevance.", subcommands: [Invalidate.self])

    struct Invalidate: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "invalidate",
            abstract: "invalidateRelevance(ofKind:) for each KIND: fresh relevance without new content, stacks ranked again.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "Kinds whose instances' relevance to refresh.", completion: Completions.kinds) var kinds: [String]

        func validate() throws {
            if kinds.isEmpty { throw ValidationError("name one or more KINDs") }
        }

        func run() throws {
            let result = try global.call(Methods.InvalidateRelevance.self, InvalidateRelevanceParams(kinds: kinds))
            global.emit(result) {
                func line(_ label: String, _ ids: [String]) {
                    if !ids.isEmpty { Terminal.print("\(label): \(ids.joined(separator: " "))") }
                }
                line("relevance refreshed", result.updated)
                line("not asked (relevance-per-hour reached)", result.limited)
                line("answer dropped (content changed meanwhile)", result.dropped)
                for failure in result.failed { Terminal.print("failed: \(failure.instance): \(failure.error)") }
                if result.updated.isEmpty, result.limited.isEmpty, result.dropped.isEmpty, result.failed.isEmpty {
                    Terminal.print("no instance with a timeline to ask")
                }
            }
        }
    }
}
