import Foundation
import WidgetCore
import WidgetPictures

/// `widgetctl simulate` without the socket: a `DaemonState` of `stacks` stacks of `perStack`
/// provider-backed instances, each holding a timeline of hourly entries with relevance over
/// the day (about a third without a score), policy atEnd at the end of the day, and
/// `donations` donations over `topics` topics the instances are configured with. Set-up
/// answers each instance's initial reload with its timeline, as its provider would. `run()`
/// simulates the next 24 hours and draws the picture: what the daemon's `simulate` and the
/// client's `--svg` do.
public final class SimulateWorkload: @unchecked Sendable {
    public let stacks: Int
    public let perStack: Int
    public let start: Date
    public let state: DaemonState
    /// From the last `run()`.
    public private(set) var lastReport: SimulationReport?
    public private(set) var lastPictureBytes = 0

    static let descriptor = #"""
        {"kind":"bench.sim","supportedFamilies":["systemSmall"],"provider":{"exec":["/bin/true"]},
         "intent":{"type":"Topic","parameters":[{"name":"topic","type":"string"}],"supportedCombinations":[["topic"]]}}
        """#

    public init(stacks: Int, perStack: Int = 10, donations: Int = 300, topics: Int = 1000, seed: UInt64 = 7) throws {
        self.stacks = stacks
        self.perStack = perStack
        let setup = coreEpoch.addingTimeInterval(7 * 3600)
        start = coreEpoch.addingTimeInterval(8 * 3600)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let descriptors = try DescriptorParser.parse(Data(Self.descriptor.utf8), path: "/bench/sim.json")
        var settings = DaemonSettings()
        settings.limits.maxStacks = max(settings.limits.maxStacks, stacks)
        settings.limits.maxInstances = max(settings.limits.maxInstances, stacks * perStack)
        var state = DaemonState(
            descriptors: Dictionary(uniqueKeysWithValues: descriptors.map { ($0.kind, $0) }), settings: settings,
            calendar: calendar, idSeed: seed)
        var random = SplitMix64(seed: seed)
        var timelines: [InstanceID: WidgetTimeline] = [:]
        for stack in 0..<stacks {
            let name = "stack-\(stack)"
            state.apply(try state.planCreateStack(name, smartRotate: true, at: setup, reserved: LimitReservations()))
            for _ in 0..<perStack {
                let id = state.makeInstanceID()
                let topic = "t\(random.below(UInt64(topics)))"
                state.apply(try state.planAdd(
                    id: id, kind: "bench.sim", family: .systemSmall, configuration: ["topic": .string(topic)], stack: name,
                    at: setup, reserved: LimitReservations()))
                let entries = (0...25).map { hour in
                    let score: Double? = random.below(3) == 0 ? nil : random.unit()
                    return WidgetEntry(
                        date: setup.addingTimeInterval(Double(hour) * 3600), content: .integer(Int64(hour)),
                        relevance: score.map { EntryRelevance(score: $0) })
                }
                timelines[id] = WidgetTimeline(entries: entries, policy: .atEnd)
            }
        }
        // The initial reloads, answered as the provider would.
        let due = state.takeDue(at: setup)
        for launch in due.launches {
            let outcomes = launch.members.map { MemberOutcome.timeline(timelines[$0.id]!) }
            state.apply(state.planLaunchResult(launch, outcomes: outcomes, at: setup, evaluate: false))
        }
        for _ in 0..<donations {
            let donation = Donation(
                intentType: "Topic", parameters: ["topic": .string("t\(random.below(UInt64(topics)))")],
                date: setup.addingTimeInterval(-random.unit() * 7 * 86400))
            state.apply(try state.planDonate(donation, at: setup, reserved: LimitReservations()).plan)
        }
        state.apply(state.planEvaluation(state.takeDirtyStacks(), at: setup))
        self.state = state
    }

    /// Simulates the 24 hours from `start` and draws them: the wall seconds each took, and the
    /// CPU seconds of both (the whole process's: stack evaluations and bands are spread over
    /// the cores), which a busy shared machine does not inflate.
    public func run() -> (simulate: Double, draw: Double, cpu: Double) {
        let clock = ContinuousClock()
        let cpuBefore = Self.processCPU()
        var report: SimulationReport?
        let simulate = clock.measure { report = state.simulate(from: start, to: start.addingTimeInterval(86400)) }
        var svg = ""
        let draw = clock.measure { svg = SimulationPicture.svg(report!) }
        let cpu = Self.processCPU() - cpuBefore
        lastReport = report
        lastPictureBytes = svg.utf8.count
        return (simulate.coreSeconds, draw.coreSeconds, cpu)
    }

    static func processCPU() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
    }
}
