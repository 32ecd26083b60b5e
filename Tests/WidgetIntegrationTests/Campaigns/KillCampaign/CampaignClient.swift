import Foundation
@testable import WidgetIntegrationSupport
import WidgetCore
@testable import WidgetTestSupport

/// One client of the kill campaign: sends state-changing requests and keeps the acknowledged
/// state. Mostly one request at a time; sometimes two at once on its two connections (a
/// `remove` of a stack member with a change to the same stack), which commute. Requests in
/// flight when the daemon dies stay `pending`: each may or may not have been applied, but
/// only whole.
final class CampaignClient: @unchecked Sendable {
    let tag: String
    private var random: SplitMix64
    private var counter = 0
    private(set) var state = CampaignState()
    private(set) var pending: [CampaignOp] = []
    private(set) var acknowledged: [String: Int] = [:]
    private(set) var failures: [String] = []
    private(set) var unacknowledgedApplied = 0
    private(set) var unacknowledgedNotApplied = 0
    private(set) var lost = 0

    init(index: Int, seed: UInt64) {
        tag = "w\(index)"
        random = SplitMix64(seed: seed &+ UInt64(index + 1) &* 0xD1B5_4A32_D192_ED03)
    }

    /// Sends requests until the connections end (the daemon was killed) or `acknowledge` says stop.
    func run(socket: String, acknowledge: () -> Bool) {
        guard let first = try? RawConnection(path: socket), let second = try? RawConnection(path: socket) else {
            failures.append("\(tag): cannot connect")
            return
        }
        var requestID = 0
        while true {
            let ops = next()
            pending = ops
            for (op, connection) in zip(ops, [first, second]) {
                let (method, params) = op.request(tag: tag)
                requestID += 1
                let object: [String: Any] = ["jsonrpc": "2.0", "id": requestID, "method": method, "params": params]
                guard let data = try? JSONSerialization.data(withJSONObject: object) else { return }
                connection.send(String(decoding: data, as: UTF8.self) + "\n")
            }
            var alive = true
            for (op, connection) in zip(ops, [first, second]) {
                guard let line = connection.readLine(),
                    let answer = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
                else {
                    alive = false
                    continue
                }
                guard let result = answer["result"] else {
                    failures.append("\(tag): \(op) answered \(answer.errorCode ?? 0) \(answer.errorMessage ?? "")")
                    pending = []
                    return
                }
                state = op.applied(to: state, newID: (result as? [String: Any])?["id"] as? String)
                pending.removeAll { "\($0)" == "\(op)" }
                acknowledged[op.type, default: 0] += 1
                if !acknowledge() { alive = false }
            }
            guard alive else { return }
        }
    }

    /// After a restart: the daemon must hold exactly the acknowledged state, or that state with
    /// some of the pending requests applied, each whole. Anything else is reported; the
    /// campaign goes on from what the daemon holds.
    func check(_ observed: CampaignState, round: Int) {
        defer { pending = [] }
        let created = observed.instances.keys.filter { state.instances[$0] == nil }
        let newID = created.count == 1 ? created[0] : nil
        // Every subset of the pending requests, applied in order (a pair commutes).
        var candidates: [(state: CampaignState, applied: Int)] = [(state, 0)]
        for op in pending {
            candidates += candidates.map { (op.applied(to: $0.state, newID: newID), $0.applied + 1) }
        }
        if let match = candidates.first(where: { $0.state == observed }) {
            unacknowledgedApplied += match.applied
            unacknowledgedNotApplied += pending.count - match.applied
            state = observed
            return
        }
        let lostLines = state.lost(in: observed)
        lost += lostLines.count
        failures.append(
            "\(tag) after kill \(round), pending \(pending):\n    "
                + (lostLines + state.extra(in: observed)).joined(separator: "\n    "))
        state = observed
    }

    // MARK: Choosing the next request

    private func pick<T>(_ items: [T]) -> T { items[Int.random(in: 0..<items.count, using: &random)] }

    private func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &random) < percent }

    /// A weighted choice among the requests that make sense for the acknowledged state.
    private func next() -> [CampaignOp] {
        if let pair = concurrentPair(), chance(8) { return pair }
        return [single()]
    }

    /// A remove of a stack member together with a swipe or an add on the same stack.
    private func concurrentPair() -> [CampaignOp]? {
        let ids = state.instances.keys.sorted()
        let stacks = state.stacks.filter { $0.value.members.count >= 2 }.keys.sorted()
        guard ids.count > 6, !stacks.isEmpty else { return nil }
        let name = pick(stacks)
        let members = state.stacks[name]!.members
        let removed = pick(members)
        let outside = ids.filter { !members.contains($0) }
        let other: CampaignOp = !outside.isEmpty && chance(50)
            ? .stackAdd(name: name, id: pick(outside))
            : .swipe(name: name, id: pick(members.filter { $0 != removed }))
        return chance(50) ? [.remove(id: removed), other] : [other, .remove(id: removed)]
    }

    private func single() -> CampaignOp {
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
