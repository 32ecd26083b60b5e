import Foundation
@testable import WidgetIntegrationSupport

extension ModelCheckRunner {
    /// The report of a difference without a known cause: the differences, the last operations,
    /// what each side says of the stacks that differ, and a copy of the daemon's log.
    func mismatch(_ step: Int, _ differences: [String], model: WidgetModel, client: RPCClient, log: String) throws -> ModelMismatch {
        var explanations = try explain(differences, model: model, client: client)
        // The daemon's own log (debug level) outlives the fixture's folder for a post-mortem.
        let kept = "/tmp/widgetd-model-\(seed).log"
        try? FileManager.default.removeItem(atPath: kept)
        if (try? FileManager.default.copyItem(atPath: log, toPath: kept)) != nil {
            explanations.append("the daemon's log: \(kept)")
        }
        return ModelMismatch(
            seed: seed, step: step, operations: operations, history: history.suffix(30), differences: differences,
            explanations: explanations)
    }

    /// For each stack that differs, the daemon's `explain` and the model's candidates.
    private func explain(_ differences: [String], model: WidgetModel, client: RPCClient) throws -> [String] {
        var lines: [String] = []
        for stack in model.stacks where differences.contains(where: { $0.hasPrefix("stack \(stack.name)") }) {
            let explained = try client.object("explain", ["name": stack.name])
            lines.append("daemon's explain \(stack.name): \(explained["why"] as? String ?? "")")
            for candidate in explained["candidates"] as? [[String: Any]] ?? [] {
                let id = candidate["instance"] as? String ?? "?"
                lines.append("    \(names[id] ?? id) rank \(candidate["rank"] ?? "?") eligible \(candidate["eligible"] ?? "?") score \(candidate["score"] ?? "-") affinity \(candidate["affinity"] ?? "?")")
            }
            lines.append("daemon's last decisions \(stack.name):")
            for decision in try client.array("log", ["stack": stack.name, "limit": 12]) {
                let from = (decision["from"] as? String).map { names[$0] ?? $0 } ?? "-"
                let to = (decision["to"] as? String).map { names[$0] ?? $0 } ?? "(held)"
                let candidate = (decision["candidate"] as? String).map { names[$0] ?? $0 } ?? "-"
                let ranks = (decision["candidates"] as? [[String: Any]] ?? []).map { item in
                    let id = item["instance"] as? String ?? "?"
                    return "\(names[id] ?? id)=\(String(format: "%.3f", item["rank"] as? Double ?? -1))"
                }
                lines.append("    \(decision["date"] ?? "?") \(from) -> \(to) \(candidate) \(decision["reason"] ?? "?") \(ranks.joined(separator: " "))")
            }
            lines.append("model's last rotations \(stack.name): \(stack.log.map { "\(ModelTime.iso($0.date)) \(names[$0.to] ?? $0.to)" }.joined(separator: ", "))")
            lines.append("model's candidates \(stack.name):")
            for candidate in model.candidates(of: stack) {
                lines.append("    \(names[candidate.id] ?? candidate.id) rank \(candidate.rank) eligible \(candidate.eligible)")
            }
        }
        return lines
    }
}
