import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The machine a report was made on.
public struct ReportMachine: Sendable {
    public var cores: Int
    public var cpuModel: String
    public var memoryBytes: UInt64
    public var kernel: String
    public var os: String
    public var swiftVersion: String

    public static func current() -> ReportMachine {
        var name = utsname()
        uname(&name)
        func field<T>(_ value: T) -> String {
            withUnsafeBytes(of: value) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
        }
        let kernel = "\(field(name.sysname)) \(field(name.release)) \(field(name.machine))"
        var cpuModel = "?"
        if let info = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8),
           let line = info.split(separator: "\n").first(where: { $0.hasPrefix("model name") }),
           let colon = line.firstIndex(of: ":") {
            cpuModel = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        var os = "?"
        if let release = try? String(contentsOfFile: "/etc/os-release", encoding: .utf8),
           let line = release.split(separator: "\n").first(where: { $0.hasPrefix("PRETTY_NAME=") }) {
            os = line.dropFirst("PRETTY_NAME=".count).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        }
        var swift = "?"
        if let binary = LoadProcess.which("swift", extra: ["/opt/swift/usr/bin"]),
           let run = try? LoadProcess.run([binary, "--version"], timeout: 60),
           let line = (run.stdout + run.stderr).split(separator: "\n").first(where: { $0.contains("Swift version") }) {
            swift = line.trimmingCharacters(in: .whitespaces)
        }
        return ReportMachine(
            cores: ProcessInfo.processInfo.activeProcessorCount, cpuModel: cpuModel,
            memoryBytes: ProcessInfo.processInfo.physicalMemory, kernel: kernel, os: os, swiftVersion: swift)
    }
}
