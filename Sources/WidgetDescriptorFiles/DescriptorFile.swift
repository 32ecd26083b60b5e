import Foundation
import WidgetCore
import WidgetDisplay

/// One descriptor file read from disk and checked against this machine: owners' names through
/// the system's accounts, providers' programs on the file system. The daemon's catalog and
/// `widgetctl widgets check` both read files through here, so a file the check passes is one
/// the daemon takes.
public enum DescriptorFile {
    public static func read(
        _ path: String, accounts: any AccountDirectory = SystemAccounts(), programs: any ProgramDirectory = SystemPrograms()
    ) throws(DescriptorProblem) -> [WidgetDescriptor] {
        guard let data = FileManager.default.contents(atPath: path) else {
            var isDirectory: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
            throw DescriptorProblem(
                path: path, reason: !exists ? "no such file" : isDirectory.boolValue ? "is a directory" : "cannot read file")
        }
        let descriptors = try DescriptorParser.parse(data, path: path, accounts: accounts, programs: programs)
        for (index, descriptor) in descriptors.enumerated() {
            let prefix = descriptors.count == 1 && !startsWithArray(data) ? "$" : "$[\(index)]"
            try checkTemplates(descriptor.templates, path: path, at: prefix + ".templates")
        }
        return descriptors
    }

    /// A template that does not compile, or an HTML template file that cannot be read, would
    /// show nothing in a host with no word why: the file is refused instead, as for bad JSON.
    private static func checkTemplates(_ templates: DisplayTemplates?, path: String, at prefix: String) throws(DescriptorProblem) {
        guard let templates else { return }
        func check(_ text: String?, _ key: String, _ escaping: EntryTemplate.Escaping) throws(DescriptorProblem) {
            guard let text else { return }
            do {
                _ = try EntryTemplate(text, escaping: escaping)
            } catch {
                throw DescriptorProblem(path: path, reason: "\(prefix).\(key): not a valid Mustache template: \(error)")
            }
        }
        try check(templates.text, "text", .html)
        try check(templates.tooltip, "tooltip", .html)
        if let file = templates.html {
            guard let data = FileManager.default.contents(atPath: file), let text = String(data: data, encoding: .utf8) else {
                throw DescriptorProblem(path: path, reason: "\(prefix).html: cannot read \(file)")
            }
            do {
                _ = try EntryTemplate(text, escaping: .html)
            } catch {
                throw DescriptorProblem(path: path, reason: "\(prefix).html: \(file) is not a valid Mustache template: \(error)")
            }
        }
    }

    private static func startsWithArray(_ data: Data) -> Bool {
        data.first { !" \t\r\n".utf8.contains($0) } == UInt8(ascii: "[")
    }
}
