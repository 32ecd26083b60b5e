import Foundation
import WidgetCore

/// The picture of a simulation (`widgetctl simulate --svg`, and the web host's page): one
/// band per stack with the instance on top across the period as coloured segments, each
/// instance's relative relevance as a step curve in its colour, reload marks (budgeted,
/// exempt, deferred), donation ticks and held-back rotations, an hour axis and a legend.
public enum SimulationPicture {
    /// The SVG document for `report` (the decoded answer of `simulate`).
    public static func svg(_ report: SimulationReport) -> String {
        let layout = Layout(report)
        var out = SVGText(capacity: 4096 + report.stacks.count * 3000 + report.reloads.count * 60)
        layout.header(&out)
        // Bands are drawn apart on every core, then joined in order.
        let bands = ParallelMap.map(Array(report.stacks.indices), makeScratch: {}) { index, _ in
            var band = SVGText(capacity: 3000)
            layout.band(index, report.stacks[index], &band)
            return band.text
        }
        for band in bands { out.raw(band) }
        layout.legend(&out)
        out.raw("</svg>\n")
        return out.text
    }

    /// Instance colours (Tableau 10): the first ten instances of a stack get distinct ones; more repeat them.
    static let palette = [
        "#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac",
    ]

    /// The label of an instance: the last part of its kind and the start of its id, short
    /// enough for the legend column.
    static func label(_ instance: SimulatedInstance) -> String {
        let tail = instance.kind.split(separator: ".").last.map(String.init) ?? instance.kind
        let short = tail.count > 12 ? String(tail.prefix(11)) + "…" : tail
        return short.isEmpty ? instance.id : short + " " + String(instance.id.prefix(4))
    }
}

/// Where everything goes, and the report's events grouped by stack once.
struct Layout {
    static let width = 1200.0
    static let left = 250.0
    static let right = 20.0
    static let headerHeight = 76.0
    static let legendHeight = 70.0
    static let strip = 16.0
    static let curveHeight = 36.0

    let report: SimulationReport
    let axis: TimeAxis
    let span: Double
    let bandHeights: [Double]
    let bandTops: [Double]
    let height: Double
    private var rotationsOf: [String: [Int]] = [:]
    private var reloadsOf: [InstanceID: [Int]] = [:]
    private var donationsOf: [String: [Int]] = [:]
    private var curveOf: [InstanceID: Int] = [:]

    init(_ report: SimulationReport) {
        self.report = report
        axis = TimeAxis(start: report.start, end: report.end)
        span = max(report.end.timeIntervalSince(report.start), 1)
        var tops: [Double] = []
        var heights: [Double] = []
        var y = Self.headerHeight
        for stack in report.stacks {
            // Room for the legend column: two instances a line.
            let lines = Double((stack.instances.count + 1) / 2)
            let height = max(Self.strip + Self.curveHeight + 30, 22 + 12 * lines)
            tops.append(y)
            heights.append(height)
            y += height
        }
        bandTops = tops
        bandHeights = heights
        height = y + Self.legendHeight
        for (index, rotation) in report.rotations.enumerated() { rotationsOf[rotation.stack, default: []].append(index) }
        for (index, reload) in report.reloads.enumerated() { reloadsOf[reload.instance, default: []].append(index) }
        for (index, donation) in report.donations.enumerated() { donationsOf[donation.stack, default: []].append(index) }
        for (index, curve) in report.relevance.enumerated() { curveOf[curve.instance] = index }
    }

    var plotWidth: Double { Self.width - Self.left - Self.right }

    /// The x of an instant given as seconds after the start.
    func x(_ offset: Double) -> Double {
        Self.left + min(max(offset / span, 0), 1) * plotWidth
    }

    func x(_ date: Date) -> Double {
        x(date.timeIntervalSince(report.start))
    }

    // MARK: Header and grid

    func header(_ out: inout SVGText) {
        out.raw("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"")
        out.number(Self.width)
        out.raw("\" height=\"")
        out.number(height)
        out.raw("\" viewBox=\"0 0 ")
        out.number(Self.width)
        out.raw(" ")
        out.number(height)
        out.raw("\" font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\">\n")
        out.raw("""
            <style>
            .title{font-size:15px;font-weight:bold;fill:#222}.axis{font-size:11px;fill:#444}
            .stack{font-size:13px;font-weight:bold;fill:#222}.small{font-size:10px;fill:#333}
            .seg{font-size:10px;fill:#fff}.grid{stroke:#ddd;stroke-width:1}
            .curve{fill:none;stroke-width:1.6;stroke-opacity:.9}.sep{stroke:#999;stroke-width:1}
            .budgeted{fill:#333}.exempt{fill:#fff;stroke:#333;stroke-width:1.2}.deferred{fill:#d62728}
            .donation{stroke:#7b3294;stroke-width:1.5}.held{stroke:#000;stroke-width:1.2}
            </style>
            <rect width="100%" height="100%" fill="#fff"/>

            """)
        var title = "widgetd simulate: " + TimeAxis.date(axis.start) + " " + TimeAxis.clock(axis.start)
        title += " UTC, " + hoursText + ", \(report.stacks.count) stack" + (report.stacks.count == 1 ? "" : "s")
        let counts = report.counts
        title += "; \(counts.rotations) rotation\(counts.rotations == 1 ? "" : "s"), \(counts.heldBack) held back"
        if report.truncated { title += " (truncated)" }
        out.label(title, x: 12, y: 22, className: "title")
        let bottom = height - Self.legendHeight
        let ticks = axis.ticks
        for tick in ticks {
            let x = x(tick - axis.start)
            out.raw("<line class=\"grid\" x1=\"")
            out.number(x)
            out.raw("\" y1=\"")
            out.number(Self.headerHeight - 8)
            out.raw("\" x2=\"")
            out.number(x)
            out.raw("\" y2=\"")
            out.number(bottom)
            out.raw("\"/>\n")
            out.label(TimeAxis.clock(tick), x: x, y: Self.headerHeight - 12, className: "axis", anchor: "middle")
            // The date above the first hour of each day, and above the first tick.
            if tick == ticks.first || TimeAxis.clock(tick) == "00:00" {
                out.label(TimeAxis.date(tick), x: x, y: Self.headerHeight - 26, className: "axis", anchor: "middle")
            }
        }
    }

    private var hoursText: String {
        let hours = span / 3600
        return hours == hours.rounded() ? "\(Int(hours)) h" : String(Int((hours * 10).rounded()) / 10) + " h"
    }

    // MARK: Bands

    func band(_ index: Int, _ stack: SimulatedStack, _ out: inout SVGText) {
        let top = bandTops[index]
        let height = bandHeights[index]
        var colour: [InstanceID: String] = [:]
        for (position, instance) in stack.instances.enumerated() {
            colour[instance.id] = SimulationPicture.palette[position % SimulationPicture.palette.count]
        }
        // Name, and the instances in their colours, two a line.
        out.label(stack.name, x: 12, y: top + 16, className: "stack")
        if !stack.smartRotate { out.label("smart rotate off", x: Self.left - 10, y: top + 16, className: "small", anchor: "end") }
        for (position, instance) in stack.instances.enumerated() {
            let x = 12 + Double(position % 2) * 118
            let y = top + 24 + Double(position / 2) * 12
            out.raw("<rect x=\"")
            out.number(x)
            out.raw("\" y=\"")
            out.number(y)
            out.raw("\" width=\"9\" height=\"9\" fill=\"")
            out.raw(colour[instance.id] ?? "#999")
            out.raw("\"/>")
            out.label(SimulationPicture.label(instance), x: x + 12, y: y + 8.5, className: "small")
        }
        topStrip(stack, top: top + 6, colour: colour, &out)
        let curveTop = top + 12 + Self.strip
        for instance in stack.instances {
            guard let curve = curveOf[instance.id].map({ report.relevance[$0] }), !curve.at.isEmpty else { continue }
            curveLine(curve, top: curveTop, colour: colour[instance.id] ?? "#999", &out)
        }
        for donation in donationsOf[stack.name] ?? [] {
            let x = x(report.donations[donation].date)
            out.raw("<line class=\"donation\" x1=\"")
            out.number(x)
            out.raw("\" y1=\"")
            out.number(curveTop - 1)
            out.raw("\" x2=\"")
            out.number(x)
            out.raw("\" y2=\"")
            out.number(curveTop + 6)
            out.raw("\"/>\n")
        }
        let markY = curveTop + Self.curveHeight + 8
        for instance in stack.instances {
            for reload in reloadsOf[instance.id] ?? [] { mark(report.reloads[reload], y: markY, &out) }
        }
        out.raw("<line class=\"sep\" x1=\"0\" y1=\"")
        out.number(top + height)
        out.raw("\" x2=\"")
        out.number(Self.width)
        out.raw("\" y2=\"")
        out.number(top + height)
        out.raw("\"/>\n")
    }

    /// Which instance is on top: a segment from each rotation to the next, labelled where it
    /// is wide enough; held-back rotations as short black ticks above.
    private func topStrip(_ stack: SimulatedStack, top: Double, colour: [InstanceID: String], _ out: inout SVGText) {
        var current = stack.top
        var from = 0.0
        var segments: [(InstanceID?, Double, Double)] = []
        for index in rotationsOf[stack.name] ?? [] {
            let rotation = report.rotations[index]
            let at = rotation.date.timeIntervalSince(report.start)
            guard let to = rotation.to else {
                let x = x(at)
                out.raw("<line class=\"held\" x1=\"")
                out.number(x)
                out.raw("\" y1=\"")
                out.number(top - 5)
                out.raw("\" x2=\"")
                out.number(x)
                out.raw("\" y2=\"")
                out.number(top)
                out.raw("\"/>\n")
                continue
            }
            segments.append((current, from, at))
            current = to
            from = at
        }
        segments.append((current, from, span))
        let names = Dictionary(stack.instances.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        for (instance, start, end) in segments where end > start {
            let x0 = x(start)
            let x1 = x(end)
            out.raw("<rect x=\"")
            out.number(x0)
            out.raw("\" y=\"")
            out.number(top)
            out.raw("\" width=\"")
            out.number(max(x1 - x0, 0.5))
            out.raw("\" height=\"")
            out.number(Self.strip)
            out.raw("\" fill=\"")
            out.raw(instance.flatMap { colour[$0] } ?? "#eee")
            out.raw("\"/>\n")
            if let instance, x1 - x0 > 80 {
                let text = names[instance].map(SimulationPicture.label) ?? instance
                out.label(text, x: x0 + 4, y: top + 12, className: "seg")
            }
        }
    }

    /// A step curve: relevance 1 at the top of the area, 0 at the bottom.
    private func curveLine(_ curve: RelevanceCurve, top: Double, colour: String, _ out: inout SVGText) {
        let bottom = top + Self.curveHeight
        func y(_ value: Double) -> Double { bottom - min(max(value, 0), 1) * Self.curveHeight }
        out.raw("<polyline class=\"curve\" stroke=\"")
        out.raw(colour)
        out.raw("\" points=\"")
        for index in curve.at.indices {
            let x = x(curve.at[index])
            if index > 0 {
                // The previous value holds until this point.
                out.number(x)
                out.raw(",")
                out.number(y(curve.value[index - 1]))
                out.raw(" ")
            }
            out.number(x)
            out.raw(",")
            out.number(y(curve.value[index]))
            out.raw(" ")
        }
        out.number(x(span))
        out.raw(",")
        out.number(y(curve.value[curve.value.count - 1]))
        out.raw("\"/>\n")
    }

    /// Budgeted: a filled dot; exempt: a ring; deferred: a red triangle.
    private func mark(_ reload: SimulatedReload, y: Double, _ out: inout SVGText) {
        let x = x(reload.date)
        switch reload.budget {
        case .budgeted, .exempt:
            out.raw("<circle class=\"")
            out.raw(reload.budget.rawValue)
            out.raw("\" cx=\"")
            out.number(x)
            out.raw("\" cy=\"")
            out.number(y)
            out.raw("\" r=\"3\"/>\n")
        case .deferred:
            out.raw("<path class=\"deferred\" d=\"M")
            out.number(x)
            out.raw(" ")
            out.number(y - 4)
            out.raw("l4 7h-8z\"/>\n")
        }
    }

    // MARK: Legend

    func legend(_ out: inout SVGText) {
        let y = height - Self.legendHeight + 24
        out.label("Legend", x: 12, y: y, className: "stack")
        var x = 90.0
        func item(_ text: String, draw: (inout SVGText, Double) -> Void) {
            draw(&out, x)
            out.label(text, x: x + 16, y: y, className: "axis")
            x += 26 + Double(text.count) * 6.2
        }
        item("on top (instance colour)") { out, x in
            out.raw("<rect x=\"\(Int(x))\" y=\"\(Int(y) - 10)\" width=\"12\" height=\"12\" fill=\"#4e79a7\"/>\n")
        }
        item("relative relevance") { out, x in
            out.raw("<line class=\"curve\" stroke=\"#f28e2b\" x1=\"\(Int(x))\" y1=\"\(Int(y) - 4)\" x2=\"\(Int(x) + 12)\" y2=\"\(Int(y) - 4)\"/>\n")
        }
        item("reload, budgeted") { out, x in out.raw("<circle class=\"budgeted\" cx=\"\(Int(x) + 6)\" cy=\"\(Int(y) - 4)\" r=\"3\"/>\n") }
        item("reload, exempt") { out, x in out.raw("<circle class=\"exempt\" cx=\"\(Int(x) + 6)\" cy=\"\(Int(y) - 4)\" r=\"3\"/>\n") }
        item("reload deferred by the budget") { out, x in
            out.raw("<path class=\"deferred\" d=\"M\(Int(x) + 6) \(Int(y) - 8)l4 7h-8z\"/>\n")
        }
        item("donation's time of day") { out, x in
            out.raw("<line class=\"donation\" x1=\"\(Int(x) + 6)\" y1=\"\(Int(y) - 10)\" x2=\"\(Int(x) + 6)\" y2=\"\(Int(y))\"/>\n")
        }
        item("rotation held back") { out, x in
            out.raw("<line class=\"held\" x1=\"\(Int(x) + 6)\" y1=\"\(Int(y) - 10)\" x2=\"\(Int(x) + 6)\" y2=\"\(Int(y))\"/>\n")
        }
        out.label(
            "Times in UTC. A simulated reload keeps the timeline held now (no provider runs); donations are placed at their time of day.",
            x: 12, y: y + 26, className: "small")
    }
}
