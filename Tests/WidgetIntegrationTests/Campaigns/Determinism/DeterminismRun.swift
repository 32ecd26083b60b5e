import Foundation
@testable import WidgetIntegrationSupport

/// The outputs of one run of `DeterminismScript` against a fresh daemon: `widgetctl --json`
/// `log`, `timeline ID` of each instance (in the order of the adds), `list` and `stack show`
/// of each stack, as raw bytes and with each instance id replaced by `#k`.
struct DeterminismOutputs {
    var names: [String] = []
    var raw: [String: String] = [:]
    var normalized: [String: String] = [:]

    /// Runs the script, under `busy` load when it is true (two `yes > /dev/null`, killed
    /// before this returns or throws).
    static func run(busy: Bool) throws -> DeterminismOutputs {
        let fixture = try DaemonFixture()
        try fixture.start(arguments: try DeterminismScript.install(in: fixture), environment: ["TZ": "UTC"])
        defer { fixture.stop() }
        let load = busy ? try BusyCores(count: 2) : nil
        defer { load?.stop() }
        let client = try RPCClient(socket: fixture.socketPath)
        var ids: [String] = []
        for (index, step) in DeterminismScript.steps.enumerated() {
            let params = DeterminismScript.resolving(step.params, ids: ids) as? [String: Any] ?? [:]
            let result: Any
            do {
                result = try client.call(step.method, params)
            } catch {
                throw FixtureError("step \(index + 1) (\(step.method)) failed: \(error)")
            }
            if step.method == "add", let id = (result as? [String: Any])?["id"] as? String { ids.append(id) }
        }
        var outputs = DeterminismOutputs()
        func capture(_ name: String, _ arguments: [String]) throws {
            let result = fixture.ctl(["--json"] + arguments)
            guard result.status == 0 else { throw FixtureError("widgetctl \(arguments.joined(separator: " ")) failed: \(result.stderr)") }
            outputs.names.append(name)
            outputs.raw[name] = result.stdout
            var text = result.stdout
            for (index, id) in ids.enumerated() { text = text.replacingOccurrences(of: id, with: "#\(index + 1)") }
            outputs.normalized[name] = text
        }
        try capture("log", ["log", "--limit", "10000"])
        for (index, id) in ids.enumerated() { try capture("timeline #\(index + 1)", ["timeline", id]) }
        try capture("list", ["list"])
        for stack in DeterminismScript.stacks { try capture("stack show \(stack)", ["stack", "show", stack]) }
        return outputs
    }

    /// Writes each output, ids replaced, as `DIRECTORY/PREFIX-NAME.json`.
    func write(to directory: String, prefix: String) throws {
        for name in names {
            let file = "\(directory)/\(prefix)-\(name.replacingOccurrences(of: " ", with: "_")).json"
            try normalized[name]?.write(toFile: file, atomically: true, encoding: .utf8)
        }
    }

    /// For each output that differs from `other`'s, its name and the first differing lines.
    func differences(from other: DeterminismOutputs, normalized: Bool) -> [String] {
        let mine = normalized ? self.normalized : raw
        let theirs = normalized ? other.normalized : other.raw
        return names.compactMap { name in
            let a = mine[name] ?? ""
            let b = theirs[name] ?? ""
            guard a != b else { return nil }
            return "\(name):\n" + Self.firstDifferingLines(a, b).joined(separator: "\n")
        }
    }

    /// Up to three differing lines, each as `line N: idle ... / busy ...`.
    static func firstDifferingLines(_ a: String, _ b: String, limit: Int = 3) -> [String] {
        let left = a.split(separator: "\n", omittingEmptySubsequences: false)
        let right = b.split(separator: "\n", omittingEmptySubsequences: false)
        var lines: [String] = []
        for index in 0..<max(left.count, right.count) where lines.count < limit {
            let l = index < left.count ? String(left[index]) : "(no line)"
            let r = index < right.count ? String(right[index]) : "(no line)"
            if l != r { lines.append("  line \(index + 1):\n    idle \(l.trimmingCharacters(in: .whitespaces))\n    busy \(r.trimmingCharacters(in: .whitespaces))") }
        }
        if left.count != right.count { lines.append("  (\(left.count) lines idle, \(right.count) busy)") }
        return lines
    }
}
