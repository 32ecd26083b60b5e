import ArgumentParser
import BenchSupport
import Foundation

/// `widgetd-load report`: the figures file as a markdown report (RESULTS.md).
struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Write the figures as a markdown report (title, machine, table, notes, findings).")

    @Option(help: "The figures file (JSON lines).")
    var figures: String

    @Option(help: "The markdown file to write.")
    var output: String

    @Option(help: "A markdown file appended verbatim under \"## Findings\".")
    var findings: String?

    @Option(help: "Lines \"step: reason\" for steps that produced no figures (listed under \"Not measured\").")
    var failures: String?

    @Option(help: "The Debian package whose programs were measured (scripts/bench builds it and passes it here).")
    var package: String?

    @Option(name: .customLong("installed-root"), help: "The folder the package was extracted to (dpkg-deb -x); figures of programs under it are marked installed.")
    var installedRoot: String?

    @Option(name: .customLong("package-source"), help: "What the package was built from, as its changelog says (e.g. \"commit 8d3f1e5a0b1c\").")
    var packageSource: String?

    @Option(help: "The report's title.")
    var title = "widgetd benchmark results"

    func run() throws {
        let all = try Figure.load(from: figures)
        // A re-run appends the same id again: the last one counts, in the place of the first.
        var order: [String] = []
        var latest: [String: Figure] = [:]
        for figure in all {
            if latest[figure.id] == nil { order.append(figure.id) }
            latest[figure.id] = figure
        }
        let rows = order.compactMap { latest[$0] }
        let machine = ReportMachine.current()
        let date = ISO8601DateFormatter().string(from: Date()).replacingOccurrences(of: "T", with: " ")
            .replacingOccurrences(of: "Z", with: " UTC")

        var text = "# \(title)\n\n"
        text += "Date: \(date)\n\n"
        text += "Machine:\n"
        text += "- cores: \(machine.cores) (\(machine.cpuModel))\n"
        text += "- memory: \(String(format: "%.1f", Double(machine.memoryBytes) / 1_073_741_824)) GiB\n"
        text += "- kernel: \(machine.kernel); \(machine.os)\n"
        text += "- swift: \(machine.swiftVersion)\n\n"
        let programs = MeasuredPrograms(package: package, installedRoot: installedRoot, source: packageSource)
        text += programs.markdown(rows)
        text += "Ratios are widgetd / reference; a target such as `≥ 1.0×` or `≤ 1.5×` applies to the ratio.\n\n"

        text += "## Targets\n\n"
        let failed = failureLines()
        text += TargetRows.markdown(
            latest, failures: Dictionary(failed.map { (String($0.prefix { $0 != ":" }), $0) }, uniquingKeysWith: { first, _ in first }),
            measured: programs.label)
        if let requests = RequestTargetsTable.markdown(latest) {
            text += requests
        }
        let others = rows.filter { !TargetRows.ids.contains($0.id) }
        if !others.isEmpty {
            text += "## Other figures\n\n"
            text += Self.tableHeader
            for figure in others { text += Self.row(figure, measured: programs.label(figure)) }
            text += "\n"
        }
        if rows.isEmpty { text += "(no figures)\n\n" }
        if !failed.isEmpty {
            text += "## Not measured\n\n"
            for line in failed { text += "- \(line)\n" }
        }

        text += (text.hasSuffix("\n\n") ? "" : "\n") + "## Notes\n\n"
        for figure in rows {
            text += "- **\(figure.figure)** (`\(figure.id)`): \(figure.notes.isEmpty ? "—" : figure.notes)\n"
        }

        if let findings {
            do {
                let body = try String(contentsOfFile: findings, encoding: .utf8)
                // FINDINGS.md brings its own heading.
                text += body.hasPrefix("## Findings") ? "\n" : "\n## Findings\n\n"
                text += body.hasSuffix("\n") ? body : body + "\n"
            } catch {
                throw ValidationError("--findings \(findings): \(error.localizedDescription)")
            }
        } else {
            text += "\n## Findings\n\n_To be written._\n"
        }

        let folder = (output as NSString).deletingLastPathComponent
        if !folder.isEmpty { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
        try text.write(toFile: output, atomically: true, encoding: .utf8)
        print("wrote \(output): \(rows.count) figures")
    }

    /// The lines of `--failures` ("step: reason"), blank ones left out.
    private func failureLines() -> [String] {
        guard let failures, let text = try? String(contentsOfFile: failures, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").map(String.init).filter { $0.contains(where: { !$0.isWhitespace }) }
    }

    /// The head of every figures table of the report.
    static let tableHeader = "| figure | widgetd | reference | ratio | target | met? | measured |\n"
        + "|---|---:|---:|---:|---|:---:|---|\n"

    /// One figure as a row of `tableHeader`'s table.
    static func row(_ figure: Figure, measured: String) -> String {
        let met: String = switch figure.met {
        case true?: "yes"
        case false?: "no"
        case nil: "—"
        }
        let cells = [
            figure.figure,
            Figure.format(figure.widgetd, unit: figure.unit),
            figure.reference.map { Figure.format($0, unit: figure.unit) } ?? "—",
            figure.ratio.map(Figure.formatRatio) ?? "—",
            figure.target,
            met,
            measured,
        ]
        return "| " + cells.map(cell).joined(separator: " | ") + " |\n"
    }

    /// A table cell: no pipes or newlines.
    static func cell(_ text: String) -> String {
        text.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: " ")
    }
}
