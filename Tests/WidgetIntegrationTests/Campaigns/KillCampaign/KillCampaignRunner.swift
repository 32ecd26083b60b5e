import Foundation
@testable import WidgetIntegrationSupport
import WidgetCore
@testable import WidgetTestSupport

/// The kill campaign's size: `full` (24 kills, over 10,000 answered changes, about a minute
/// here) unless `WIDGETD_KILL_CAMPAIGN` says `quick` or a number of kills.
/// `WIDGETD_KILL_CAMPAIGN_SEED` changes the seed.
struct KillCampaignSize {
    var kills: Int
    var clients = 8
    /// Each round kills widgetd once this many requests (drawn from the range) were answered.
    var acknowledgedPerRound: ClosedRange<Int>
    var seed: UInt64 = 6_001

    static let quick = KillCampaignSize(kills: 6, acknowledgedPerRound: 200...400)
    static let full = KillCampaignSize(kills: 24, acknowledgedPerRound: 300...700)

    static func fromEnvironment() -> KillCampaignSize {
        let environment = ProcessInfo.processInfo.environment
        var size: KillCampaignSize = switch environment["WIDGETD_KILL_CAMPAIGN"] {
        case "quick": .quick
        case let value? where Int(value) != nil: KillCampaignSize(kills: Int(value)!, acknowledgedPerRound: 300...700)
        default: .full
        }
        if let seed = environment["WIDGETD_KILL_CAMPAIGN_SEED"].flatMap(UInt64.init) { size.seed = seed }
        return size
    }
}

/// The outcome, printed at the end.
struct KillCampaignSummary {
    var kills = 0
    var acknowledged: [String: Int] = [:]
    var lost = 0
    var unacknowledgedApplied = 0
    var unacknowledgedNotApplied = 0
    var failures: [String] = []
    var seconds = 0.0
    var seed: UInt64 = 0

    var totalAcknowledged: Int { acknowledged.values.reduce(0, +) }

    var text: String {
        let types = acknowledged.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        return """
            kill campaign (seed \(seed)): \(kills) SIGKILLs in \(String(format: "%.1f", seconds)) s
              acknowledged changes: \(totalAcknowledged) (\(types))
              lost: \(lost); unacknowledged but applied whole: \(unacknowledgedApplied); unacknowledged, not applied: \(unacknowledgedNotApplied)
              problems: \(failures.count)
            """
    }
}

/// Drives widgetd from many connections at once, SIGKILLs it after a seeded number of
/// answered requests, restarts it on the same state dir, and checks every client's state.
final class KillCampaignRunner {
    let fixture: DaemonFixture
    let size: KillCampaignSize
    private(set) var clients: [CampaignClient] = []
    private var failures: [String] = []

    init(fixture: DaemonFixture, size: KillCampaignSize) {
        self.fixture = fixture
        self.size = size
    }

    func run() throws -> KillCampaignSummary {
        try fixture.descriptor(
            CampaignOp.kind, exec: nil, families: ["systemSmall", "systemLarge"], intent: DaemonFixture.testIntent)
        clients = (0..<size.clients).map { CampaignClient(index: $0, seed: size.seed) }
        var random = SplitMix64(seed: size.seed)
        let started = Date()
        try fixture.start()
        for round in 1...size.kills {
            let threshold = Int.random(in: size.acknowledgedPerRound, using: &random)
            try drive(until: threshold)
            fixture.crash()
            let donations = try storedDonations()
            try fixture.start()
            try check(round: round, donations: donations)
        }
        fixture.stop()
        var summary = KillCampaignSummary(kills: size.kills, seconds: Date().timeIntervalSince(started), seed: size.seed)
        for client in clients {
            summary.acknowledged.merge(client.acknowledged, uniquingKeysWith: +)
            summary.lost += client.lost
            summary.unacknowledgedApplied += client.unacknowledgedApplied
            summary.unacknowledgedNotApplied += client.unacknowledgedNotApplied
            summary.failures += client.failures
        }
        summary.failures += failures
        return summary
    }

    /// Every client on its own thread until the daemon is killed after `threshold` answers.
    private func drive(until threshold: Int) throws {
        guard let pid = fixture.process?.processIdentifier else { throw FixtureError("widgetd is not running") }
        let gate = KillGate(threshold: threshold, pid: pid)
        let group = DispatchGroup()
        let socket = fixture.socketPath
        for client in clients {
            group.enter()
            Thread {
                client.run(socket: socket, acknowledge: gate.acknowledge)
                group.leave()
            }.start()
        }
        group.wait()
    }

    /// Donation ids as the state file holds them (no request lists donations).
    private func storedDonations() throws -> [String] {
        try StateSQL.rows(fixture.stateDirectory + "/state.sqlite", "SELECT id FROM donation")
    }

    /// What the restarted daemon holds, per client, through its own queries.
    private func check(round: Int, donations: [String]) throws {
        let connection = try RawConnection(path: fixture.socketPath)
        var observed: [String: CampaignState] = Dictionary(uniqueKeysWithValues: clients.map { ($0.tag, CampaignState()) })
        func call(_ method: String, _ params: [String: Any] = [:]) throws -> Any {
            let object: [String: Any] = ["jsonrpc": "2.0", "id": 1, "method": method, "params": params]
            let line = String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
            guard let answer = connection.request(line), let result = answer["result"] else {
                throw FixtureError("\(method) failed after kill \(round)")
            }
            return result
        }
        for instance in try call("list") as? [[String: Any]] ?? [] {
            guard let id = instance["id"] as? String, let configuration = instance["configuration"] as? [String: Any],
                let tag = configuration["city"] as? String, let slot = configuration["slot"] as? Int,
                let family = instance["family"] as? String
            else {
                failures.append("after kill \(round): unexpected instance \(instance)")
                continue
            }
            let timeline = try call("timeline", ["id": id]) as? [String: Any] ?? [:]
            let version = timelineVersion(timeline, id: id, round: round)
            observed[tag, default: CampaignState()].instances[id] = .init(family: family, slot: slot, timeline: version)
        }
        for stack in try call("stack.list") as? [[String: Any]] ?? [] {
            guard let name = stack["name"] as? String, let tag = name.split(separator: "-").first.map(String.init),
                let members = stack["instances"] as? [String], let smartRotate = stack["smartRotate"] as? Bool
            else { continue }
            let userChoice = stack["userChoice"] as? String
            observed[tag, default: CampaignState()].stacks[name] = .init(members: members, smartRotate: smartRotate, userChoice: userChoice)
            // With the clock still, a swipe's hold lasts: the user's choice is on top.
            let top = stack["top"] as? String
            if let top, !members.contains(top) { failures.append("after kill \(round): stack \(name) top \(top) is not a member") }
            if let userChoice, members.contains(userChoice), top != userChoice {
                failures.append("after kill \(round): stack \(name) top \(top ?? "none"), user's choice \(userChoice)")
            }
        }
        for id in donations {
            guard let tag = id.split(separator: "-").first.map(String.init) else { continue }
            observed[tag, default: CampaignState()].donations.insert(id)
        }
        for client in clients { client.check(observed[client.tag] ?? CampaignState(), round: round) }
    }

    /// The version of a pushed timeline, checking that it is whole: every entry of one push,
    /// in order, and none of another.
    private func timelineVersion(_ timeline: [String: Any], id: String, round: Int) -> Int? {
        let entries = timeline["entries"] as? [[String: Any]] ?? []
        guard !entries.isEmpty else {
            if timeline["policy"] is NSNull || timeline["policy"] == nil { return nil }
            failures.append("after kill \(round): \(id) has a timeline head without entries")
            return nil
        }
        let contents = entries.map { $0["content"] as? [String: Any] ?? [:] }
        guard let version = contents[0]["v"] as? Int,
            contents.map({ $0["v"] as? Int }) == Array(repeating: version, count: contents.count),
            contents.map({ $0["k"] as? Int }) == Array(0..<CampaignOp.entryCount(version)),
            timeline["policy"] as? String == "never"
        else {
            failures.append("after kill \(round): \(id) holds a partial or mixed timeline: \(entries)")
            return -1
        }
        return version
    }
}

/// Counts answers across the clients and SIGKILLs widgetd when the count reaches the threshold.
final class KillGate: @unchecked Sendable {
    private let lock = NSLock()
    private let threshold: Int
    private let pid: pid_t
    private var count = 0
    private var killed = false

    init(threshold: Int, pid: pid_t) {
        self.threshold = threshold
        self.pid = pid
    }

    /// One more answered request; false once the daemon has been killed.
    func acknowledge() -> Bool {
        lock.withLock {
            count += 1
            if count >= threshold && !killed {
                kill(pid, SIGKILL)
                killed = true
            }
            return !killed
        }
    }
}
