import ArgumentParser
import BenchSupport
import Foundation
import Glibc

/// What the Debian package costs, measured on the package itself: its sizes, and the resident
/// memory at rest of its programs run from the files it installs (`dpkg-deb -x` into the work
/// dir), not from a build folder, so linking, stripping and the links between programs count.
struct Footprint: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Installed size, .deb size, and VmRSS at rest of widgetd and widgetd-web as the .deb installs them.")

    @OptionGroup var common: CommonOptions

    @Option(help: "The package to measure (scripts/package writes it to dist/).")
    var deb: String

    @Option(help: "The package already extracted here (dpkg-deb -x), as scripts/bench does once for every step; default: extracted into the work dir.")
    var root: String?

    @Option(help: "Instances held for the memory-with-instances figure.")
    var instances: Int = 10_000

    func run() async throws {
        let work = try common.prepareWorkDirectory()
        let package = absolute(deb)
        guard FileManager.default.fileExists(atPath: package) else { throw ValidationError("no package at \(package): run scripts/package") }
        let root: String
        if let given = self.root {
            root = absolute(given)
        } else {
            root = work + "/footprint-root"
            try? FileManager.default.removeItem(atPath: root)
            _ = try ChildProcess.output("/usr/bin/dpkg-deb", ["-x", package, root], scratch: work + "/dpkg-deb.out")
        }
        let field = try ChildProcess.output("/usr/bin/dpkg-deb", ["-f", package, "Installed-Size"], scratch: work + "/dpkg-deb.out")
        guard let installedKiB = Int(field.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw ScaleError("\(package): no Installed-Size in its control file (got '\(field)')")
        }
        let debBytes = try (FileManager.default.attributesOfItem(atPath: package)[.size] as? NSNumber)?.intValue ?? 0
        let name = (package as NSString).lastPathComponent
        try common.emit(Figure(
            id: "footprint.installed", figure: "installed size of the package (dpkg-deb -I Installed-Size)",
            widgetd: Self.megabytes(installedKiB * 1024), unit: "MB", target: "≤ 60 MB",
            notes: "Installed-Size \(installedKiB) KiB of \(name); MB = 10⁶ bytes").measuring(package))
        try common.emit(Figure(
            id: "footprint.deb", figure: ".deb size", widgetd: Self.megabytes(debBytes), unit: "MB", target: "≤ 20 MB",
            notes: "\(debBytes) B, \(name)").measuring(package))

        let widgetd = root + "/usr/bin/widgetd"
        let web = root + "/usr/bin/widgetd-web"
        for program in [widgetd, web] where !FileManager.default.isExecutableFile(atPath: program) {
            throw ScaleError("the package installs no executable \(program.dropFirst(root.count))")
        }
        let widgets = work + "/push-widgets"
        try Fixtures.writePushWidgets(into: widgets)
        let run = work + "/run"

        // At rest on an empty state dir, alone; then the web host connected to it.
        let emptyState = work + "/footprint-empty-state"
        try? FileManager.default.removeItem(atPath: emptyState)
        let empty = try RunningDaemon(DaemonSetup(
            executable: widgetd, runDirectory: run, name: "footprint-empty", stateDirectory: emptyState,
            widgetsDirectory: widgets))
        try? FileManager.default.removeItem(atPath: empty.setup.logPath)
        try empty.start()
        let daemonAtRest = try empty.settledMemory(limit: 20)
        let daemonDetail = MemoryDetail(pid: empty.pid)
        let host = try WebHostProcess(executable: web, daemonSocket: empty.setup.socketPath, runDirectory: run)
        let hostAtRest = try settledMemory(pid: host.process.pid, limit: 20)
        let hostDetail = MemoryDetail(pid: host.process.pid)
        host.process.stop(grace: 5)
        empty.stop()
        try common.emit(Figure(
            id: "footprint.widgetd.rest", figure: "widgetd VmRSS at rest, empty state, installed build",
            widgetd: Self.megabytes(daemonAtRest.rss), unit: "MB", target: "≤ 12 MB",
            notes: "VmRSS \(daemonAtRest.rss) B once settled after READY=1 (\(daemonDetail.text)); MB = 10⁶ bytes").measuring(widgetd))
        try common.emit(Figure(
            id: "footprint.web.rest", figure: "widgetd-web VmRSS at rest, installed build",
            widgetd: Self.megabytes(hostAtRest.rss), unit: "MB", target: "≤ 15 MB",
            notes: "VmRSS \(hostAtRest.rss) B once settled, connected to an idle widgetd, no browser (\(hostDetail.text)); MB = 10⁶ bytes").measuring(web))

        // Holding instances: the state seeded as `memory` seeds it, at this size.
        let seed = try SeedOptions.parse(["--instances", String(instances)])
        let stateDirectory = seed.stateDirectory(workDirectory: work)
        let info = try await Seeder.ensure(
            stateDirectory: stateDirectory, instances: seed.instances, entries: seed.entries, contentBytes: seed.contentBytes)
        let config = work + "/footprint.conf"
        try Fixtures.writeScaleConfig(to: config, instances: info.instances)
        let full = try RunningDaemon(DaemonSetup(
            executable: widgetd, runDirectory: run, name: "footprint-seeded", stateDirectory: stateDirectory,
            widgetsDirectory: widgets, configPath: config, clock: info.daemonClock))
        try? FileManager.default.removeItem(atPath: full.setup.logPath)
        try full.start()
        let held = try full.settledMemory(limit: 60)
        let heldDetail = MemoryDetail(pid: full.pid)
        full.stop()
        let bound = 12 + Double(info.instances) * 1024 / 1_000_000
        try common.emit(Figure(
            id: "footprint.widgetd.instances",
            figure: "widgetd VmRSS at rest with \(grouped(info.instances)) instances, installed build (target 12 MB + 1 KiB per instance)",
            widgetd: Self.megabytes(held.rss), unit: "MB", target: "≤ \(fixed(bound)) MB",
            notes: "VmRSS \(held.rss) B once settled after READY=1 (\(heldDetail.text)); \(info.entries) entries × "
                + "\(info.contentBytes) B of content per instance; MB = 10⁶ bytes").measuring(widgetd))
    }

    static func megabytes(_ bytes: Int) -> Double { Double(bytes) / 1_000_000 }
}

/// VmRSS of any process once it has settled: two readings 2 s apart within 1 % (at most `limit` s).
func settledMemory(pid: pid_t, limit: Double) throws -> ProcessMemory {
    var last = try ProcessMemory(pid: pid)
    var waited = 0.0
    while waited < limit {
        usleep(2_000_000)
        waited += 2
        let now = try ProcessMemory(pid: pid)
        if abs(Double(now.rss - last.rss)) < 0.01 * Double(max(last.rss, 1)) { return now }
        last = now
    }
    return last
}
