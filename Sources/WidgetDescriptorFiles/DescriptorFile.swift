import Foundation
import WidgetCore
import WidgetDisplay

/// One descriptor file read from disk and checked against this machine: owners' names through
/// the system's accounts, providers' programs on the file system. The daemon's catalog and
/// `widgetctl widgets check` both read files through here, so a file the check passes is one
/// the daemon takes.
public enum DescriptorFile {
    /// Reads `path` if it may be trusted and is not over `maxBytes`. As sshd's `StrictModes`
    /// (`FileModeRule`): the widgets directory and every directory above it must be writable
    /// by root or the daemon's user only; the file itself also by a user that every
    /// descriptor in it names as its owner; its size is known before a byte is read.
    public static func read(
        _ path: String, accounts: any AccountDirectory = SystemAccounts(), programs: any ProgramDirectory = SystemPrograms(),
        maxBytes: Int = LimitSettings().maxDescriptorBytes, daemonUID: UInt32 = geteuid()
    ) throws(DescriptorProblem) -> [WidgetDescriptor] {
        let strict = FileModeRule(daemonUID: daemonUID)
        if let problem = FileTrust.problem(path, rule: strict, includingFile: false) {
            throw DescriptorProblem(path: path, reason: problem)
        }
        // The file's owner is judged once its descriptors say who owns them; its mode now.
        let file = try BoundedFile.read(path, maxBytes: maxBytes, rule: nil, reportAs: path)
        var modeOnly = file.status
        modeOnly.uid = 0
        if let problem = strict.problem(modeOnly, path: path) { throw DescriptorProblem(path: path, reason: problem) }
        let data = file.data
        let descriptors = try DescriptorParser.parse(data, path: path, accounts: accounts, programs: programs)
        let owners = Set(descriptors.map(\.owner))
        let rule = FileModeRule(daemonUID: daemonUID, owner: owners.count == 1 ? owners.first! : nil)
        if let problem = rule.problem(file.status, path: path) ?? FileTrust.problem(path, rule: rule) {
            throw DescriptorProblem(path: path, reason: problem)
        }
        for (index, descriptor) in descriptors.enumerated() {
            let prefix = descriptors.count == 1 && !startsWithArray(data) ? "$" : "$[\(index)]"
            try checkTemplates(
                descriptor.templates, path: path, at: prefix + ".templates", maxBytes: maxBytes,
                rule: FileModeRule(daemonUID: daemonUID, owner: descriptor.owner))
        }
        return descriptors
    }

    /// A template that does not compile, or an HTML template file that cannot be read, would
    /// show nothing in a host with no word why: the file is refused instead, as for bad JSON.
    /// An HTML template file goes into every host's page as it is, so whoever may change it
    /// could put script there: it must pass `rule` as the descriptor does.
    private static func checkTemplates(
        _ templates: DisplayTemplates?, path: String, at prefix: String, maxBytes: Int, rule: FileModeRule
    ) throws(DescriptorProblem) {
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
            if let problem = FileTrust.problem(file, rule: rule) {
                throw DescriptorProblem(path: path, reason: "\(prefix).html: \(problem)")
            }
            let text: String
            do throws(DescriptorProblem) {
                let read = try BoundedFile.read(file, maxBytes: maxBytes, rule: rule, reportAs: path)
                guard let decoded = String(data: read.data, encoding: .utf8) else {
                    throw DescriptorProblem(path: path, reason: "not UTF-8")
                }
                text = decoded
            } catch {
                let reason = error.reason.hasPrefix("no such") || error.reason.hasPrefix("cannot read") ? "" : " (\(error.reason))"
                throw DescriptorProblem(path: path, reason: "\(prefix).html: cannot read \(file)\(reason)")
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
