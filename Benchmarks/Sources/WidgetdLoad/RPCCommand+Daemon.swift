import BenchSupport
import Foundation

extension RPCCommand {
    static let intentType = "BenchLoad"
    static let cities = 10

    func kindName(_ index: Int) -> String { String(format: "bench.load.k%02d", index) }

    var shape: RPCWorkload.WidgetdShape {
        RPCWorkload.WidgetdShape(kinds: (0..<kinds).map(kindName), intentType: Self.intentType, cities: Self.cities)
    }

    /// The daemon as installed, with `kinds` kinds of `instancesPerKind` instances each, every
    /// instance with its first timeline, so the measured requests find a settled daemon.
    func startDaemon(binary: String, work: String) throws -> LoadDaemon {
        // One sh provider for all kinds, batch-capable, with an intent that donations match
        // (parameter "city").
        let widgets = work + "/widgets"
        try FileManager.default.createDirectory(atPath: widgets + "/providers", withIntermediateDirectories: true)
        try BenchProviders.installShell(at: widgets + "/providers/bench-provider")
        for index in 0..<kinds {
            try writeFile(
                widgets + "/\(kindName(index)).json",
                BenchProviders.descriptor(
                    kind: kindName(index), exec: ["./providers/bench-provider"], batch: true, intentType: Self.intentType))
        }
        // The defaults of a real installation, written out: budget on (70/day, 5 min spacing),
        // with room for every donation the run makes.
        let config = work + "/widgetd.conf"
        try writeFile(config, """
            # widgetd-load rpc: the shipped defaults
            [budget]
            daily-limit = 70
            min-spacing = 5m
            [providers]
            max-concurrent = 4
            # The donate workload records more donations than the default max-donations
            # (10,000) retains; room for all of them keeps the figure comparable with runs
            # made before retention (each donation past the limit also deletes the oldest).
            [limits]
            max-donations = 1000000
            """)
        var options = LoadDaemon.Options(binary: binary, workDir: work + "/daemon", widgetsDirs: [widgets], config: config)
        options.logLevel = common.logLevel
        let daemon = try LoadDaemon.start(options)
        progress("widgetd ready (pid \(daemon.pid)); placing \(kinds * instancesPerKind) instances")
        do {
            try setUpInstances(socket: daemon.socketPath)
        } catch {
            daemon.stop()
            throw error
        }
        return daemon
    }

    /// Places the instances (each `add` starts an exempt first load) and waits until every
    /// one has its first timeline.
    private func setUpInstances(socket: String) throws {
        let events = try LoadClient(path: socket)
        try events.call("subscribe")
        let control = try LoadClient(path: socket)
        var pending = Set<String>()
        var failed: [String] = []
        let consume: ([String: Any]) -> Void = { event in
            switch event["type"] as? String {
            case "reload": for id in event["instances"] as? [String] ?? [] { pending.remove(id) }
            case "reloadFailed": failed.append("\(event["error"] ?? "?")")
            default: break
            }
        }
        for kind in 0..<kinds {
            for instance in 0..<instancesPerKind {
                let result = try control.call(
                    "add",
                    ["kind": kindName(kind), "family": "systemSmall",
                     "configuration": ["city": "city-\((kind * instancesPerKind + instance) % Self.cities)"]])
                guard let id = (result as? [String: Any])?["id"] as? String else { throw LoadError("add: no id in \(result)") }
                pending.insert(id)
            }
        }
        let deadline = monotonicSeconds() + 300
        while !pending.isEmpty {
            guard failed.isEmpty else { throw LoadError("a first load failed: \(failed[0])") }
            guard monotonicSeconds() < deadline else {
                throw LoadError("\(pending.count) instances still without a timeline after 300 s")
            }
            if let event = try events.nextNotification(timeout: 5) { consume(event) }
        }
    }
}

/// Bytes in the regular files under `path` (the daemon's state: database, WAL, and so on).
func directoryBytes(_ path: String) -> Int {
    let fm = FileManager.default
    guard let names = fm.enumerator(atPath: path) else { return 0 }
    var total = 0
    for case let name as String in names {
        if let attributes = try? fm.attributesOfItem(atPath: path + "/" + name), attributes[.type] as? FileAttributeType == .typeRegular {
            total += (attributes[.size] as? NSNumber)?.intValue ?? 0
        }
    }
    return total
}
