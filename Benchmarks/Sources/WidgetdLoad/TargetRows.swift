import BenchSupport

/// The report's first table: the figures that have a target the daemon is held to, in a fixed
/// order (what is installed, then start-up, requests, launch, scheduler, day), each row there
/// whether or not this run measured it, so a target no step reached is seen as not measured.
enum TargetRows {
    /// One row: the figure's id, and its name and target for when no figure has that id.
    struct Row {
        var id: String
        var title: String
        var target: String

        /// The `scripts/bench` step that measures it: its ids start with the step's name, but
        /// for the `widgetd-scale` steps' `scale.` ones.
        var step: String {
            let first = id.prefix { $0 != "." }
            return first == "scale" ? String(id.dropFirst(6).prefix { $0 != "." }) : String(first)
        }
    }

    static let rows: [Row] = [
        Row(id: "footprint.installed", title: "installed size of the package (dpkg-deb -I Installed-Size)", target: "≤ 60 MB"),
        Row(id: "footprint.deb", title: ".deb size", target: "≤ 20 MB"),
        Row(id: "footprint.widgetd.rest", title: "widgetd VmRSS at rest, empty state, installed build", target: "≤ 12 MB"),
        Row(id: "footprint.web.rest", title: "widgetd-web VmRSS at rest, installed build", target: "≤ 15 MB"),
        Row(
            id: "footprint.widgetd.instances", title: "widgetd VmRSS at rest with 10,000 instances, installed build",
            target: "≤ 12 MB + 1 KiB per instance"),
        Row(id: "startup.ready", title: "exec to READY=1 (empty state) vs redis-server exec to its first PONG", target: "≤ 2×"),
    ] + RPCWorkload.allCases.map {
        Row(id: "rpc.\($0.rawValue).cpu", title: "\($0.title): server CPU per request", target: "≤ 1.5×")
    } + RPCWorkload.allCases.map {
        Row(id: "rpc.\($0.rawValue).throughput", title: "\($0.title): throughput", target: "≥ 1.0×")
    } + [
        Row(id: "launch.batch", title: "merged provider launch vs posix_spawn + wait", target: "≤ 1.5×"),
        Row(id: "core.scheduler", title: "scheduler reschedule + pop at 1,000,000 vs bare Heap", target: "≥ 0.5×"),
        Row(id: "scale.day", title: "simulated day, 10,000 instances, 1,000 stacks", target: "≤ 10 s"),
    ]

    static var ids: Set<String> { Set(rows.map(\.id)) }

    /// The table: a measured row as in every table of the report, a row not measured with its
    /// target, "not measured" and why (its step's line of `failures`, by step name, or that the
    /// step did not run).
    static func markdown(_ figures: [String: Figure], failures: [String: String], measured: (Figure) -> String) -> String {
        var text = ReportCommand.tableHeader
        for row in rows {
            if let figure = figures[row.id] {
                text += ReportCommand.row(figure, measured: measured(figure))
            } else {
                let why = failures[row.step] ?? "step \(row.step) not run"
                let cells = [row.title, "—", "—", "—", row.target, "not measured", why]
                text += "| " + cells.map(ReportCommand.cell).joined(separator: " | ") + " |\n"
            }
        }
        return text + "\n"
    }
}
