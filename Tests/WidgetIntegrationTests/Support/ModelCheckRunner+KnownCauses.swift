import Foundation

extension ModelCheckRunner {
    /// Today the scheduler loop may still be storing a stack evaluation it started (after a
    /// launch landed, or while `clock advance` waited on another stack) when a request, even
    /// `clock advance`, is answered: `stack.list` then shows the old top while the decision is
    /// already in the log (issue 12). A `stack.add` of an unknown instance takes the stack's
    /// lock, which every evaluation holds until its result is in memory, and then fails (-32002)
    /// changing nothing: once it answers, no evaluation of that stack is under way.
    func waitForStackEvaluations(_ client: RPCClient, stacks: [String]) throws {
        for name in stacks {
            do {
                try client.call("stack.add", ["name": name, "instances": ["00000000-no-such-instance"]])
                throw RPCClient.Failure(method: "stack.add", code: 0, message: "an unknown instance was added to \(name)")
            } catch let failure as RPCClient.Failure where failure.code == -32002 {
                continue
            }
        }
    }

    /// The differences left once those with a known cause are set aside (and recorded in
    /// `knownIssues`). Only a stack (its top or its rotations) can differ for a known cause,
    /// when during the step
    /// - issue 12: the stack had members launched at an instant where the daemon may evaluate
    ///   it before every launch of that instant has landed, and the daemon's log shows a
    ///   decision at such an instant on ranks the model never saw there (a state between two
    ///   launches of one instant);
    /// - a member's best score left the relevance window, a moment the daemon does not
    ///   re-evaluate at (it catches up at the stack's next entry change or relevance change);
    /// or within an hour of such a disagreement: the rotations the hourly cap counts are not
    /// shown, and a stack the daemon left undecided stays so until its next re-evaluation.
    /// The model then takes the stack as the daemon shows it, and goes on from there.
    func explainKnown(
        _ differences: [String], step: Int, model: inout WidgetModel, observed: ModelObservation, client: RPCClient
    ) throws -> [String] {
        var left: [String] = []
        var resynced: Set<String> = []
        for difference in differences {
            let key = String(difference.prefix { $0 != ":" })
            let words = key.split(separator: " ")
            guard words.first == "stack", words.count > 1, let stack = model.stack(String(words[1])), let shown = observed.stacks[stack.name]
            else {
                left.append(difference)
                continue
            }
            var evidence = difference
            let cause: ModelKnownIssue.Cause
            if model.notes.racyStacks.contains(stack.name), let decision = try decisionBetweenLaunches(stack.name, model: model, client: client) {
                cause = .race
                evidence += "\n" + decision
                if model.notes.windowExitStacks.contains(stack.name) { evidence += "\n(a score also left the window in this step)" }
            } else if model.notes.windowExitStacks.contains(stack.name) {
                cause = .windowExit
            } else if let (until, earlier) = uncertain[stack.name], until > model.notes.start {
                cause = earlier
                evidence += "\n(within an hour of the stack's last known disagreement)"
            } else {
                left.append(difference)
                continue
            }
            // A stack's top and its rotations usually differ together: one disagreement.
            guard !resynced.contains(stack.name) else { continue }
            resynced.insert(stack.name)
            knownIssues.append(ModelKnownIssue(
                seed: seed, step: step, stack: stack.name, difference: evidence, history: history.suffix(6), cause: cause))
            var taken = shown.applied(to: stack)
            // The rotations the hourly cap counts, as the daemon logged them.
            let since = min(model.now - 3599, model.notes.start)
            let rotated = try client.array("log", ["stack": stack.name, "since": ModelTime.iso(since), "limit": 1000])
                .compactMap { decision -> (date: Seconds, to: String)? in
                    guard let to = decision["to"] as? String, let date = (decision["date"] as? String).flatMap(ModelTime.seconds) else { return nil }
                    return (date, to)
                }
            taken.rotations = rotated.map(\.date).filter { $0 > model.now - 3600 }
            model.replaceStack(taken, rotated: rotated.filter { $0.date >= model.notes.start })
            uncertain[stack.name] = (model.now + 3600, cause)
        }
        return left
    }

    /// A decision the daemon logged for the stack during this step on ranks the model never
    /// had at that instant, as a line; nil when there is none.
    private func decisionBetweenLaunches(_ stack: String, model: WidgetModel, client: RPCClient) throws -> String? {
        let since = model.notes.start
        for decision in try client.array("log", ["stack": stack, "since": ModelTime.iso(since), "limit": 1000]) {
            guard let date = (decision["date"] as? String).flatMap(ModelTime.seconds) else { continue }
            var ranks: [String: Double] = [:]
            for candidate in decision["candidates"] as? [[String: Any]] ?? [] {
                let eligible = (candidate["eligible"] as? NSNumber)?.boolValue ?? true
                ranks[candidate["instance"] as? String ?? "?"] = eligible ? (candidate["rank"] as? NSNumber)?.doubleValue ?? .nan : -1
            }
            if !model.notes.evaluated(stack, at: date, ranks: ranks) {
                let text = ranks.sorted { $0.key < $1.key }.map { "\(names[$0.key] ?? $0.key)=\($0.value < 0 ? "x" : String(format: "%.3f", $0.value))" }
                return "the daemon decided \(decision["reason"] ?? "?") at \(ModelTime.iso(date)) on \(text.joined(separator: " "))"
            }
        }
        return nil
    }
}
