import Foundation
import WidgetCore

/// The descriptors loaded from the widgets directories, with the files that were skipped:
/// what the daemon loads, and what `widgetctl simulate --state` reads beside a state directory.
/// A bad file never stops the daemon: it is reported and the rest load. A kind whose provider
/// cannot be run loads with its `problem`, so that it is listed with it.
public struct DescriptorCatalog: Sendable {
    public private(set) var descriptors: [String: WidgetDescriptor] = [:]
    public private(set) var problems: [DescriptorProblem] = []

    public init() {}

    /// Reads every `*.json` file of each directory, in name order, at most
    /// `limits.maxDescriptorFiles` of them in all and none over `limits.maxDescriptorBytes`.
    /// A kind declared twice keeps its first declaration. A directory that someone besides
    /// root or the daemon's user may write is reported (`FileModeRule`), and its files with it.
    /// Owners' names are resolved through `accounts` now, not per request.
    /// Blocking file I/O: the daemon calls it off its event loop.
    public static func load(
        from directories: [String], accounts: any AccountDirectory = SystemAccounts(),
        programs: any ProgramDirectory = SystemPrograms(), limits: LimitSettings = LimitSettings()
    ) -> DescriptorCatalog {
        var catalog = DescriptorCatalog()
        let manager = FileManager.default
        let daemonUID = geteuid()
        var remaining = limits.maxDescriptorFiles
        for directory in directories {
            let names: [String]
            do {
                names = try manager.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".json") }.sorted()
            } catch {
                let reason = manager.fileExists(atPath: directory) ? "cannot read directory" : "no such directory"
                catalog.problems.append(DescriptorProblem(path: directory, reason: reason))
                continue
            }
            if let problem = FileTrust.problem(directory, rule: FileModeRule(daemonUID: daemonUID)) {
                catalog.problems.append(DescriptorProblem(path: directory, reason: "\(problem); its descriptors are refused"))
            }
            if names.count > remaining {
                let skipped = names[remaining...]
                catalog.problems.append(DescriptorProblem(
                    path: directory,
                    reason: "\(skipped.count) descriptor files not read, over \(limits.maxDescriptorFiles) "
                        + "(max-descriptor-files in [limits] of widgetd.conf): \(summary(Array(skipped)))"))
            }
            for name in names.prefix(remaining) {
                remaining -= 1
                let path = (directory as NSString).appendingPathComponent(name)
                do {
                    let descriptors = try DescriptorFile.read(
                        path, accounts: accounts, programs: programs, maxBytes: limits.maxDescriptorBytes, daemonUID: daemonUID)
                    for descriptor in descriptors {
                        if let existing = catalog.descriptors[descriptor.kind] {
                            catalog.problems.append(DescriptorProblem(
                                path: path, reason: "kind '\(descriptor.kind)' already declared in \(existing.source)"))
                        } else {
                            catalog.descriptors[descriptor.kind] = descriptor
                        }
                    }
                } catch {
                    catalog.problems.append(error)
                }
            }
        }
        return catalog
    }

    /// The first few of `names` and how many more: one bounded line for any number.
    public static func summary(_ names: [String], first: Int = 5, separator: String = ", ") -> String {
        let shown = names.prefix(first).joined(separator: separator)
        return names.count > first ? "\(shown) and \(names.count - first) more" : shown
    }

    public subscript(kind: String) -> WidgetDescriptor? { descriptors[kind] }

    /// For handler tests that build a catalog without files.
    public mutating func insertForTesting(_ descriptor: WidgetDescriptor) {
        descriptors[descriptor.kind] = descriptor
    }
}
