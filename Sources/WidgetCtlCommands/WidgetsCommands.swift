import ArgumentParser
import Foundation
import WidgetCore
import WidgetDescriptorFiles
import WidgetProtocol

/// `widgets`: the kinds the daemon loaded (the default), and checking descriptor files.
struct WidgetsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "widgets",
        abstract: "Descriptors: those loaded (the default), read the widgets directories again, or check files without a daemon.",
        subcommands: [List.self, Reload.self, Check.self], defaultSubcommand: List.self)

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list", abstract: "Descriptors loaded, kinds that cannot be used, and files skipped.")
        @OptionGroup var global: GlobalOptions

        func run() throws {
            let result = try global.call(Methods.Widgets.self)
            global.emit(result) {
                var table = Table("KIND", "NAME", "FAMILIES", "INSTANCES", "OWNER")
                for widget in result.widgets {
                    table.add(
                        widget.kind, widget.displayName, widget.supportedFamilies.map(\.rawValue).joined(separator: ","),
                        "\(widget.instances)", widget.owner.map(WidgetsCommand.ownerText) ?? "-")
                }
                table.print()
                for widget in result.widgets {
                    if let problem = widget.problem { Terminal.print("cannot use \(widget.kind) (\(widget.source)): \(problem)") }
                }
                for problem in result.problems {
                    Terminal.print("skipped \(problem.path): \(problem.reason)")
                }
            }
        }
    }

    struct Reload: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "reload", abstract: "Read the widgets directories again now; print the kinds added, changed and removed.")
        @OptionGroup var global: GlobalOptions

        func run() throws {
            let changes = try global.call(Methods.WidgetsReload.self)
            global.emit(changes) {
                for line in Self.describe(changes) { Terminal.print(line) }
            }
        }

        /// A line per kind added, changed or removed and per file skipped, then the count.
        static func describe(_ changes: DescriptorChanges) -> [String] {
            var lines = changes.added.map { "added    \($0)" } + changes.changed.map { "changed  \($0)" }
                + changes.removed.map { "removed  \($0)" }
            lines += changes.problems.map { "skipped  \($0.path): \($0.reason)" }
            let count = "\(changes.kinds) kind\(changes.kinds == 1 ? "" : "s") loaded"
            lines.append(changes.changesKinds ? count : "no kind changed; \(count)")
            return lines
        }
    }

    /// Reads files as the daemon reads its widgets directories (`DescriptorFile`), so what
    /// passes here loads there, provider programs included (looked up on this PATH).
    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "check",
            abstract: "Check descriptor files as the daemon would load them; no daemon needed.",
            discussion: """
                Prints one line per problem on stderr and exits 1 when any file has one; otherwise an OK line \
                per file and exit 0. Provider programs given by a bare name are looked up on this PATH.
                """)
        @OptionGroup var global: GlobalOptions
        @Argument(help: "Descriptor files.") var files: [String]

        func validate() throws {
            guard !files.isEmpty else { throw ValidationError("name at least one descriptor file") }
        }

        func run() throws {
            let report = DescriptorCheckReport.checking(files)
            global.emit(report) {
                for file in report.files {
                    if file.ok {
                        Terminal.print("OK  \(file.path): \(file.kinds.isEmpty ? "no kinds" : file.kinds.joined(separator: ", "))")
                    } else {
                        for problem in file.problems {
                            Terminal.printError(Terminal.text("\(problem)"))
                        }
                    }
                }
            }
            let bad = report.files.filter { !$0.ok }.count
            if bad > 0 {
                throw CtlFailure(status: 1, message: "\(bad) of \(report.files.count) descriptor files have problems")
            }
        }
    }

    static func ownerText(_ owner: KindOwner) -> String {
        switch owner {
        case .user(let name, _): "user:\(name)"
        case .group(let name, _): "group:\(name)"
        }
    }
}

/// What `widgets check` found, file by file (its `--json` output).
struct DescriptorCheckReport: Encodable {
    struct File: Encodable {
        var path: String
        var ok: Bool { problems.isEmpty }
        var kinds: [String]
        var problems: [DescriptorProblem]

        enum CodingKeys: String, CodingKey { case path, ok, kinds, problems }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(path, forKey: .path)
            try container.encode(ok, forKey: .ok)
            try container.encode(kinds, forKey: .kinds)
            try container.encode(problems, forKey: .problems)
        }
    }

    var ok: Bool
    var files: [File]

    /// Each file as the daemon would read it, and a kind declared in two of them refused in
    /// the later one, as the daemon refuses it within its widgets directories.
    static func checking(_ paths: [String]) -> DescriptorCheckReport {
        var declared: [String: String] = [:]
        var files: [File] = []
        for path in paths {
            var file = File(path: path, kinds: [], problems: [])
            do {
                for descriptor in try DescriptorFile.read(path) {
                    file.kinds.append(descriptor.kind)
                    if let problem = descriptor.problem {
                        file.problems.append(DescriptorProblem(path: path, reason: problem))
                    }
                    if let earlier = declared[descriptor.kind] {
                        file.problems.append(DescriptorProblem(
                            path: path, reason: "kind '\(descriptor.kind)' already declared in \(earlier)"))
                    } else {
                        declared[descriptor.kind] = path
                    }
                }
            } catch {
                file.problems.append(error)
            }
            files.append(file)
        }
        return DescriptorCheckReport(ok: files.allSatisfy(\.ok), files: files)
    }
}
