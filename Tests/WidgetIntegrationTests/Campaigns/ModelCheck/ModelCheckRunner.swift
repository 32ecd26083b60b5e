import Foundation
@testable import WidgetIntegrationSupport

/// Runs one seed: a fresh daemon on the virtual clock, and the model beside it. After every
/// operation both are read and compared; the first difference ends the run.
final class ModelCheckRunner {
    let seed: UInt64
    let operations: Int
    private(set) var counts: [String: Int] = [:]
    private(set) var history: [String] = []
    /// Daemon id → instance name, for every instance ever added (reports name removed ones too).
    private(set) var names: [String: String] = [:]

    init(seed: UInt64, operations: Int) {
        self.seed = seed
        self.operations = operations
    }

    /// The number of operations carried out; throws `ModelMismatch` at the first difference.
    func run() throws -> Int {
        let fixture = try DaemonFixture()
        let arguments = try ModelWidgets.install(in: fixture)
        // Affinity reads the time of day in the daemon's zone; the model's is UTC.
        try fixture.start(clock: DaemonFixture.virtualStart, arguments: arguments, environment: ["TZ": "UTC"])
        defer { fixture.stop() }
        let client = try RPCClient(socket: fixture.socketPath)
        var model = WidgetModel(start: ModelTime.seconds(DaemonFixture.virtualStart)!)
        var generator = ModelOpGenerator(seed: seed)
        for step in 1...operations {
            let op = generator.next(model)
            history.append("\(step) @\(ModelTime.iso(model.now)): \(op)")
            let result = try send(op, step: step, model: model, client: client)
            var newID: String?
            if case .add = op {
                newID = (result as? [String: Any])?["id"] as? String
                names[newID ?? "?"] = model.nextName
            }
            model.beginStep(tracing: ProcessInfo.processInfo.environment["WIDGETD_MODEL_TRACE_STEP"] == "\(step)")
            defer { if model.notes.tracing { print(model.notes.trace.joined(separator: "\n")) } }
            op.apply(to: &model, newID: newID)
            counts[String(describing: op).split(separator: " ").prefix(op.countsArgument ? 2 : 1).joined(separator: " "), default: 0] += 1
            let observed = try ModelObservation(daemon: client, names: names, since: model.notes.start)
            let differences = observed.differences(from: ModelObservation(model: model, names: names))
            guard differences.isEmpty else {
                throw try mismatch(step, differences, model: model, client: client, log: fixture.logPath)
            }
        }
        return operations
    }

    /// Sends the operation. Nothing is waited for besides its answer: on the virtual clock a
    /// request is answered once everything it made due now has happened (launches and the
    /// stack evaluations they lead to), so the next read sees all of it.
    private func send(_ op: ModelOp, step: Int, model: WidgetModel, client: RPCClient) throws -> Any {
        let (method, params) = op.request { name in model.instance(named: name)?.id ?? name }
        do {
            return try client.call(method, params)
        } catch {
            throw ModelMismatch(
                seed: seed, step: step, operations: operations, history: history.suffix(30),
                differences: ["the daemon refused \(op): \(error)"], explanations: [])
        }
    }
}

extension ModelOp {
    /// Summaries count `reload --all`, `stack swipe` and the like under two words.
    var countsArgument: Bool {
        switch self {
        case .reloadAll, .stackCreate, .stackAdd, .swipe, .smartRotate, .advance, .setClock, .deleteDonations: true
        default: false
        }
    }
}
