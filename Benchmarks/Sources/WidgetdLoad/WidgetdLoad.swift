import ArgumentParser
import BenchSupport
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// End-to-end figures over the real control socket, each against a reference measured in the
/// same run: requests (CPU per request, throughput, p99) against Redis, provider launch
/// overhead against spawning the same provider by hand, start-up against `redis-server`'s,
/// wake-ups against the deadlines that need them. `report` turns a figures file into
/// RESULTS.md.
@main
struct WidgetdLoad: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "widgetd-load",
        abstract: "Load figures for widgetd over its control socket, and the results report.",
        subcommands: [RPCCommand.self, LaunchCommand.self, WakeupsCommand.self, StartupCommand.self, ReportCommand.self])
}

/// What the measuring subcommands share: where figures go, the daemon binary, the work dir.
struct CommonOptions: ParsableArguments {
    @Option(help: "Append figures (one JSON line each) to this file.")
    var figures: String

    @Option(help: "The widgetd binary (default: the repository's .build/release/widgetd).")
    var widgetd: String?

    @Option(name: .customLong("work-dir"), help: "Folder for sockets, state and logs (default: a new folder under $TMPDIR).")
    var workDir: String?

    @Flag(help: "Keep the work folder afterwards (it is removed when it was made here and all went well).")
    var keepWork = false

    @Option(help: "Daemon log level (info is the default of a real installation).")
    var logLevel = "info"

    /// The daemon binary: given, or found from this executable's place in the repository.
    func widgetdBinary() throws -> String {
        if let widgetd {
            guard access(widgetd, X_OK) == 0 else { throw ValidationError("--widgetd \(widgetd): not an executable") }
            return widgetd
        }
        let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        var folder = (exe as NSString).deletingLastPathComponent
        while folder.count > 1 {
            let candidate = folder + "/.build/release/widgetd"
            if FileManager.default.fileExists(atPath: folder + "/Sources/WidgetDaemon"), access(candidate, X_OK) == 0 {
                return candidate
            }
            folder = (folder as NSString).deletingLastPathComponent
        }
        throw ValidationError("no widgetd binary found: build it (swift build -c release --product widgetd) or pass --widgetd PATH")
    }

    /// A fresh work folder (made here unless given) and whether this run made it.
    func makeWorkDir(_ name: String) throws -> (path: String, made: Bool) {
        if let workDir {
            let path = workDir + "/" + name
            try? FileManager.default.removeItem(atPath: path)
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            return (path, false)
        }
        let base = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array("\(base)/widgetd-load-\(name)-XXXXXX".utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw LoadError("mkdtemp in \(base): \(String(cString: strerror(errno)))")
        }
        return (String(cString: made), true)
    }

    /// Removes a work folder this run made, unless asked to keep it.
    func cleanUp(_ work: (path: String, made: Bool), succeeded: Bool) {
        if work.made && !keepWork && succeeded {
            try? FileManager.default.removeItem(atPath: work.path)
        } else {
            print("work folder kept: \(work.path)")
        }
    }
}

/// The file system type of a path (from /proc/mounts: the longest mount point containing it).
func fileSystemType(of path: String) -> String {
    guard let mounts = try? String(contentsOfFile: "/proc/mounts", encoding: .utf8) else { return "?" }
    let real = (path as NSString).resolvingSymlinksInPath
    var best = ("", "?")
    for line in mounts.split(separator: "\n") {
        let fields = line.split(separator: " ")
        guard fields.count >= 3 else { continue }
        let point = String(fields[1])
        let inside = real == point || real.hasPrefix(point == "/" ? "/" : point + "/")
        if inside && point.count >= best.0.count { best = (point, "\(fields[2]) (\(fields[0]) on \(point))") }
    }
    return best.1
}

/// Writes a text file, creating its folder.
func writeFile(_ path: String, _ text: String) throws {
    try FileManager.default.createDirectory(
        atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try text.write(toFile: path, atomically: true, encoding: .utf8)
}

/// Flushes stdout so progress lines show at once when piped.
func progress(_ text: String) {
    print(text)
    fflush(nil)
}

/// The 1-minute load average (from /proc/loadavg), to show how busy a shared machine was.
func loadAverage() -> String {
    guard let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8) else { return "?" }
    return text.split(separator: " ").first.map(String.init) ?? "?"
}
