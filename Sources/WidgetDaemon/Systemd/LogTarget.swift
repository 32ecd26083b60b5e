import Foundation
import Glibc
import Logging
import WidgetCore

/// Where logs go: the journal when stderr is the journal's stream (`$JOURNAL_STREAM`
/// matches stderr's device and inode), stderr otherwise.
public enum LogTarget: String, Sendable, CaseIterable {
    case auto, journal, stderr

    public func resolved() -> LogTarget {
        guard self == .auto else { return self }
        return Self.stderrIsJournal() ? .journal : .stderr
    }

    static func stderrIsJournal() -> Bool {
        guard let stream = ProcessInfo.processInfo.environment["JOURNAL_STREAM"] else { return false }
        let parts = stream.split(separator: ":")
        guard parts.count == 2, let device = UInt64(parts[0]), let inode = UInt64(parts[1]) else { return false }
        var info = stat()
        guard fstat(STDERR_FILENO, &info) == 0 else { return false }
        return UInt64(info.st_dev) == device && UInt64(info.st_ino) == inode
    }

    /// Installs the handler once per process.
    public func bootstrap(level: Logger.Level) {
        let target = resolved()
        LoggingSystem.bootstrap { label in
            var handler: any LogHandler = target == .journal
                ? JournalLogHandler(label: label)
                : StderrLogHandler(label: label, priorityPrefix: ProcessInfo.processInfo.environment["JOURNAL_STREAM"] != nil)
            handler.logLevel = level
            return handler
        }
    }
}
