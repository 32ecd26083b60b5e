import Foundation
import WidgetCore

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
        return try DescriptorParser.parse(data, path: path, accounts: accounts, programs: programs)
    }
}
