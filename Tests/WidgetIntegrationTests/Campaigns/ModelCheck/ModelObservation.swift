import Foundation
@testable import WidgetIntegrationSupport

/// What is compared after every step, as text keyed by what it is about (`i3 current`,
/// `i3 schedule`, `i3 budget`, `stack s1`), with instance ids replaced by their names, so a
/// difference prints as one readable line.
struct ModelObservation {
    var values: [String: String] = [:]
    /// The daemon's stacks as it shows them, to take over after a known disagreement.
    var stacks: [String: ShownStack] = [:]

    struct ShownStack {
        var top: String?
        var userChoice: String?
        var topSince: Seconds?
        var holdUntil: Seconds?

        /// The model's stack with what the daemon shows.
        func applied(to stack: ModelStack) -> ModelStack {
            var stack = stack
            stack.top = top
            stack.userChoice = userChoice
            stack.topSince = topSince
            stack.holdUntil = holdUntil
            return stack
        }
    }

    /// The lines where `other` differs, each `key: daemon ..., model ...`.
    func differences(from model: ModelObservation) -> [String] {
        Set(values.keys).union(model.values.keys).sorted().compactMap { key in
            let daemon = values[key] ?? "(nothing)"
            let expected = model.values[key] ?? "(nothing)"
            return daemon == expected ? nil : "\(key):\n    daemon \(daemon)\n    model  \(expected)"
        }
    }

    static func entry(_ date: String, _ content: String) -> String { "\(date) \(content)" }

    static func reload(due: String, wanted: String, reason: String) -> String { "due \(due) wanted \(wanted) \(reason)" }

    static func budget(used: Int, nextAllowed: String?, last: String?) -> String {
        "used \(used) next \(nextAllowed ?? "-") last \(last ?? "-")"
    }

    static func stack(top: String?, instances: [String], userChoice: String?, smartRotate: Bool, topSince: String?, holdUntil: String?) -> String {
        "top \(top ?? "-") [\(instances.joined(separator: " "))] choice \(userChoice ?? "-") rotate \(smartRotate)"
            + " since \(topSince ?? "-") hold \(holdUntil ?? "-")"
    }
}

extension ModelObservation {
    /// The model's predictions; `names` names the instances removed since.
    init(model: WidgetModel, names: [String: String]) {
        let name = { (id: String) in model.instance(id: id)?.name ?? names[id] ?? id }
        let now = model.now
        for instance in model.instances {
            let current = instance.timeline?.current(at: now)
            values["\(instance.name) current"] = current.map { Self.entry(ModelTime.iso($0.date), $0.content) } ?? "none"
            if let pending = instance.pending {
                values["\(instance.name) schedule"] = Self.reload(
                    due: ModelTime.iso(pending.due), wanted: ModelTime.iso(pending.wanted), reason: pending.reason.rawValue)
            }
            // A push-only instance is never reloaded: its budget is not worth a request a step.
            if instance.kind.providerKey != nil {
                values["\(instance.name) budget"] = Self.budget(
                    used: instance.used(at: now), nextAllowed: instance.nextAllowed.flatMap { $0 > now ? ModelTime.iso($0) : nil },
                    last: instance.budgeted.last.map(ModelTime.iso))
            }
        }
        for stack in model.stacks {
            let rotations = model.notes.rotations.filter { $0.stack == stack.name }
            if !rotations.isEmpty {
                values["stack \(stack.name) rotations"] = rotations.map { "\(ModelTime.iso($0.date)) \(name($0.to))" }.joined(separator: ", ")
            }
            values["stack \(stack.name)"] = Self.stack(
                top: stack.top.map(name), instances: stack.instances.map(name), userChoice: stack.userChoice.map(name),
                smartRotate: stack.smartRotate, topSince: stack.topSince.map(ModelTime.iso), holdUntil: stack.holdUntil.map(ModelTime.iso))
        }
    }

    /// What the daemon says, through `list`, `schedule`, `budget`, `stack.list` and the
    /// rotations `log` holds since `since` (the step's first instant).
    init(daemon client: RPCClient, names: [String: String], since: Seconds) throws {
        let name = { (id: String) in names[id] ?? id }
        for item in try client.array("list") {
            let id = item["id"] as? String ?? "?"
            let entry = item["currentEntry"] as? [String: Any]
            let content = (entry?["content"] as? [String: Any])?["v"] as? String ?? "\(entry?["content"] ?? "")"
            values["\(name(id)) current"] = entry.map { Self.entry($0["date"] as? String ?? "?", content) } ?? "none"
            guard item["kind"] as? String != ModelKind.push.rawValue else { continue }
            let budget = try client.object("budget", ["id": id])
            values["\(name(id)) budget"] = Self.budget(
                used: budget["used"] as? Int ?? -1, nextAllowed: budget["nextAllowed"] as? String, last: budget["lastReload"] as? String)
        }
        for item in try client.array("schedule") {
            let id = item["instance"] as? String ?? "?"
            let inFlight = item["inFlight"] as? Bool == true ? " (in flight)" : ""
            values["\(name(id)) schedule"] = Self.reload(
                due: item["due"] as? String ?? "?", wanted: item["wanted"] as? String ?? "?", reason: (item["reason"] as? String ?? "?") + inFlight)
        }
        var rotations: [String: [String]] = [:]
        for decision in try client.array("log", ["since": ModelTime.iso(since), "limit": 10_000]) {
            guard let to = decision["to"] as? String, let stack = decision["stack"] as? String else { continue }
            rotations[stack, default: []].append("\(decision["date"] as? String ?? "?") \(name(to))")
        }
        for (stack, lines) in rotations { values["stack \(stack) rotations"] = lines.joined(separator: ", ") }
        for item in try client.array("stack.list") {
            let stackName = item["name"] as? String ?? "?"
            stacks[stackName] = ShownStack(
                top: item["top"] as? String, userChoice: item["userChoice"] as? String,
                topSince: (item["topSince"] as? String).flatMap(ModelTime.seconds),
                holdUntil: (item["holdUntil"] as? String).flatMap(ModelTime.seconds))
            values["stack \(stackName)"] = Self.stack(
                top: (item["top"] as? String).map(name), instances: (item["instances"] as? [String] ?? []).map(name),
                userChoice: (item["userChoice"] as? String).map(name), smartRotate: item["smartRotate"] as? Bool ?? false,
                topSince: item["topSince"] as? String, holdUntil: item["holdUntil"] as? String)
        }
    }
}
