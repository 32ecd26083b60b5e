import BenchSupport
import Foundation

/// What the report's figures measured: the programs as the Debian package installs them
/// (extracted with `dpkg-deb -x`), the package file itself, code run in process, or some other
/// binary named by its path, so that a figure of a build folder's program is never taken for
/// one of the installed program.
struct MeasuredPrograms {
    var package: String?
    var installedRoot: String?
    var source: String?

    /// The "measured" cell of a figure's row.
    func label(_ figure: Figure) -> String {
        guard let program = figure.program else { return "not recorded" }
        if let root = installedRoot.map(Self.trimmed), program.hasPrefix(root + "/") {
            return "installed `\(program.dropFirst(root.count))`"
        }
        if let package, program == package || (program as NSString).lastPathComponent == (package as NSString).lastPathComponent {
            return "the .deb"
        }
        if program.hasPrefix("in process") { return "in process" }
        return "`\(program)` (not the installed program)"
    }

    /// The section that says what the labels of the tables stand for.
    func markdown(_ figures: [Figure]) -> String {
        var text = "## What was measured\n\n"
        text += "The last column of each table says what its row measured.\n\n"
        if let package {
            let name = (package as NSString).lastPathComponent
            let built = source.map { ", built from \($0)" } ?? ""
            text += "- **installed `/usr/bin/…`**: the programs as `\(name)` (\(Self.size(of: package))\(built)) installs them, "
            text += "run from the files `dpkg-deb -x` wrote"
            if let root = installedRoot.map(Self.trimmed) {
                text += " to `\(root)`: `/usr/bin/widgetd` \(Self.size(of: root + "/usr/bin/widgetd")), the one executable, "
                text += "with `widgetctl`, `widgetd-web` and the example bundle links to it, each running as the program it is started as"
            }
            text += ".\n"
            text += "- **the .deb**: the package file itself and its control fields.\n"
        }
        for note in Set(figures.compactMap(\.program).filter { $0.hasPrefix("in process") }).sorted() {
            text += "- **in process**: \(note.dropFirst("in process: ".count)).\n"
        }
        let others = Set(figures.map(label).filter { $0.hasSuffix("(not the installed program)") }).sorted()
        if !others.isEmpty {
            text += "- Programs that are not the installed ones (a build folder's, or `--widgetd` given by hand): "
            text += others.map { String($0.dropLast(" (not the installed program)".count)) }.joined(separator: ", ") + ".\n"
        }
        return text + "\n"
    }

    private static func trimmed(_ path: String) -> String {
        path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
    }

    /// "12.3 MB (12,345,678 B)", or "(size unknown)" for a file that cannot be read.
    private static func size(of path: String) -> String {
        guard let bytes = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue else {
            return "(size unknown)"
        }
        return String(format: "%.1f MB, %d B", Double(bytes) / 1_000_000, bytes)
    }
}
