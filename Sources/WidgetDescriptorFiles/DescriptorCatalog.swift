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

    /// Reads every `*.json` file of each directory, in name order. A kind declared twice keeps
    /// its first declaration.
    /// Owners' names are resolved through `accounts` now, not per request.
    public static func load(
        from directories: [String], accounts: any AccountDirectory = SystemAccounts(),
        programs: any ProgramDirectory = SystemPrograms()
    ) -> DescriptorCatalog {
        var catalog = DescriptorCatalog()
        let manager = FileManager.default
        for directory in directories {
            let names: [String]
            do {
                names = try manager.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".json") }.sorted()
            } catch {
                let reason = manager.fileExists(atPath: directory) ? "cannot read directory" : "no such directory"
                catalog.problems.append(DescriptorProblem(path: directory, reason: reason))
                continue
            }
            for name in names {
                let path = (directory as NSString).appendingPathComponent(name)
                do {
                    for descriptor in try DescriptorFile.read(path, accounts: accounts, programs: programs) {
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

    public subscript(kind: String) -> WidgetDescriptor? { descriptors[kind] }

    /// For handler tests that build a catalog without files.
    public mutating func insertForTesting(_ descriptor: WidgetDescriptor) {
        descriptors[descriptor.kind] = descriptor
    }
}
