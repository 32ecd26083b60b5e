import BenchSupport
import Foundation

/// The report's table of widgetd against Redis: the request workloads × the three figures
/// of `widgetd-load rpc` (CPU per request, throughput, p99), each against its target.
enum RequestTargetsTable {
    static let metrics: [(suffix: String, title: String)] = [
        ("cpu", "server CPU per request"), ("throughput", "throughput"), ("p99", "p99 latency"),
    ]

    /// Markdown for the figures with ids `rpc.<workload>.<metric>`; nil when there are none.
    static func markdown(_ figures: [String: Figure]) -> String? {
        let rows = RPCWorkload.allCases.filter { workload in
            metrics.contains { figures["rpc.\(workload.rawValue).\($0.suffix)"] != nil }
        }
        guard !rows.isEmpty else { return nil }
        var text = "## widgetd against Redis\n\n"
        text += "From `widgetd-load rpc`: one load generator driving both servers alike, widgetd and Redis "
        text += "measured in turn (pairs of runs; how many, and each pair's figures, are in the notes). Each cell is the median of the pairs' ratios widgetd / Redis, "
        text += "then the medians of the raw figures (widgetd / Redis). CPU per request is the headline: it is "
        text += "the figure that stays steady on a shared machine.\n\n"
        let headers = metrics.map { metric in
            let target = rows.lazy.compactMap { figures["rpc.\($0.rawValue).\(metric.suffix)"]?.target }.first ?? ""
            return "\(metric.title) (\(target))"
        }
        text += "| workload | " + headers.joined(separator: " | ") + " |\n"
        text += "|---|" + String(repeating: "---|", count: metrics.count) + "\n"
        for workload in rows {
            var cells = [workload.title]
            for metric in metrics {
                guard let figure = figures["rpc.\(workload.rawValue).\(metric.suffix)"] else {
                    cells.append("—")
                    continue
                }
                let verdict = switch figure.met {
                case true?: "met"
                case false?: "not met"
                case nil: "—"
                }
                let ratio = figure.ratio.map(Figure.formatRatio) ?? "—"
                let raw = "\(Figure.formatNumber(figure.widgetd)) / \(figure.reference.map(Figure.formatNumber) ?? "—") \(figure.unit)"
                cells.append("**\(ratio)** \(verdict) (\(raw))")
            }
            text += "| " + cells.map(ReportCommand.cell).joined(separator: " | ") + " |\n"
        }
        return text + "\n"
    }
}
