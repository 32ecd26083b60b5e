import Foundation
import WidgetCore

/// The rows of a start-up read that do not decode, with what to do about each. The read goes
/// on without them; the rows stay in the file as they are until the operator removes or fixes
/// them (widgetd writes nothing for a failed instance, and nothing over a left-out row).
struct Quarantine {
    let path: String
    private(set) var rows: [QuarantinedRow] = []
    private(set) var failed: [FailedInstance] = []
    private var failedIDs: Set<InstanceID> = []

    init(path: String) {
        self.path = path
    }

    /// A row of the instance's does not decode: the instance is left out and shown as failed.
    mutating func instance(
        _ id: InstanceID, kind: String, family: WidgetFamily?, created: Date, table: String, key: String, reason: String
    ) {
        guard failedIDs.insert(id).inserted else { return }
        let described = "stored row does not decode: \(table) \(key): \(reason)"
        failed.append(FailedInstance(id: id, kind: kind, family: family, created: created, reason: described))
        rows.append(QuarantinedRow(
            table: table, key: key, reason: reason,
            advice: "instance \(id) is shown as failed and not run; 'widgetctl remove \(id)' removes it with its rows, "
                + "or look at it with: sqlite3 \(path) \"SELECT * FROM \(table) WHERE \(key)\", fix it and restart widgetd"))
    }

    /// A row that is left out alone: a donation, a reload record, a stack...
    mutating func row(_ table: String, key: String, reason: String, advice: String) {
        rows.append(QuarantinedRow(
            table: table, key: key, reason: reason,
            advice: advice + "; look at it with: sqlite3 \(path) \"SELECT * FROM \(table) WHERE \(key)\""))
    }

    /// Text as an SQL string literal, for the commands the advice gives.
    static func sqlText(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
    }

    /// A stored value quoted for a reason: what was read, short, its control characters
    /// escaped (a damaged row may hold anything, and the reason goes to the log and to `list`).
    static func shown(_ text: String) -> String {
        var shown = ""
        for scalar in text.unicodeScalars.prefix(40) {
            shown += scalar.value < 0x20 || scalar.value == 0x7F ? "\\u{\(String(scalar.value, radix: 16))}" : String(scalar)
        }
        return "'" + shown + (text.unicodeScalars.count > 40 ? "…'" : "'")
    }

    /// The failed instances in placement order (created, then id).
    var failedInPlacementOrder: [FailedInstance] {
        failed.sorted { ($0.created, $0.id) < ($1.created, $1.id) }
    }
}
