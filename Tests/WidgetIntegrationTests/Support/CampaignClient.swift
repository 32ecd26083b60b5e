import Foundation

/// One connection of the kill campaign: sends state-changing requests one at a time and keeps
/// the acknowledged state. The request in flight when the daemon dies stays `pending`: it may
/// or may not have been applied, but only whole.
final class CampaignClient: @unchecked Sendable {
    let tag: String
    private var random: SplitMix64
    private var counter = 0
    private(set) var state = CampaignState()
    private(set) var pending: CampaignOp?
    private(set) var acknowledged: [String: Int] = [:]
    private(set) var failures: [String] = []
    private(set) var unacknowledgedApplied = 0
    private(set) var unacknowledgedNotApplied = 0
    private(set) var lost = 0

    init(index: Int, seed: UInt64) {
        tag = "w\(index)"
        random = SplitMix64(state: seed &+ UInt64(index + 1) &* 0xD1B5_4A32_D192_ED03)
    }

    /// Sends requests until the connection ends (the daemon was killed) or `acknowledge` says stop.
    func run(socket: String, acknowledge: () -> Bool) {
        guard let connection = try? RawConnection(path: socket) else {
            failures.append("\(tag): cannot connect")
            return
        }
        var requestID = 0
        while true {
            let op = next()
            let (method, params) = op.request(tag: tag)
            requestID += 1
            let object: [String: Any] = ["jsonrpc": "2.0", "id": requestID, "method": method, "params": params]
            guard let data = try? JSONSerialization.data(withJSONObject: object) else { return }
            pending = op
            guard let answer = connection.request(String(decoding: data, as: UTF8.self)) else { return }
            guard let result = answer["result"] else {
                failures.append("\(tag): \(method) answered \(answer.errorCode ?? 0) \(answer.errorMessage ?? "")")
                pending = nil
                return
            }
            state = op.applied(to: state, newID: (result as? [String: Any])?["id"] as? String)
            pending = nil
            acknowledged[op.type, default: 0] += 1
            guard acknowledge() else { return }
        }
    }

    /// After a restart: the daemon must hold exactly the acknowledged state, or that state with
    /// the pending request applied whole. Anything else is reported; the campaign goes on from
    /// what the daemon holds.
    func check(_ observed: CampaignState, round: Int) {
        defer { pending = nil }
        if observed == state {
            if pending != nil { unacknowledgedNotApplied += 1 }
            return
        }
        if let pending {
            let created = observed.instances.keys.filter { state.instances[$0] == nil }
            let after = pending.applied(to: state, newID: created.count == 1 ? created[0] : nil)
            if observed == after {
                unacknowledgedApplied += 1
                state = after
                return
            }
        }
        let lostLines = state.lost(in: observed)
        lost += lostLines.count
        failures.append(
            "\(tag) after kill \(round), pending \(pending.map { "\($0)" } ?? "none"):\n    "
                + (lostLines + state.extra(in: observed)).joined(separator: "\n    "))
        state = observed
    }

    // MARK: Choosing the next request

    private func pick<T>(_ items: [T]) -> T { items[Int.random(in: 0..<items.count, using: &random)] }

    private func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &random) < percent }

    /// A weighted choice among the requests that make sense for the acknowledged state.
    private func next() -> CampaignOp {
        counter += 1
        let slot = counter
        let ids = state.instances.keys.sorted()
        let names = state.stacks.keys.sorted()
        let family = chance(50) ? "systemSmall" : "systemLarge"
        guard !names.isEmpty else { return .createStack(name: "\(tag)-s\(slot)", smartRotate: true) }
        guard ids.count >= 3 else { return .add(family: family, slot: slot, stack: chance(50) ? pick(names) : nil) }
        var choices: [(weight: Int, make: () -> CampaignOp)] = [
            (14, { .configure(id: self.pick(ids), slot: slot) }),
            (24, { .push(id: self.pick(ids), version: slot) }),
            (14, { .donate(id: "\(self.tag)-d\(slot)", slot: slot) }),
            (5, { .smartRotate(name: self.pick(names), on: self.chance(50)) }),
        ]
        if ids.count < 16 { choices.append((14, { .add(family: family, slot: slot, stack: self.chance(50) ? self.pick(names) : nil) })) }
        if ids.count > 6 { choices.append((ids.count >= 16 ? 20 : 8, { .remove(id: self.pick(ids)) })) }
        if names.count < 3 { choices.append((2, { .createStack(name: "\(self.tag)-s\(slot)", smartRotate: self.chance(70)) })) }
        let addable = names.flatMap { name in ids.filter { !state.stacks[name]!.members.contains($0) }.map { (name, $0) } }
        if !addable.isEmpty { choices.append((8, { let (name, id) = self.pick(addable); return .stackAdd(name: name, id: id) })) }
        let swipable = names.flatMap { name in state.stacks[name]!.members.map { (name, $0) } }
        if !swipable.isEmpty { choices.append((8, { let (name, id) = self.pick(swipable); return .swipe(name: name, id: id) })) }
        var roll = Int.random(in: 0..<choices.reduce(0) { $0 + $1.weight }, using: &random)
        for choice in choices {
            if roll < choice.weight { return choice.make() }
            roll -= choice.weight
        }
        return choices[0].make()
    }
}
