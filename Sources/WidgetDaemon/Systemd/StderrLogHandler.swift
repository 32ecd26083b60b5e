import Foundation
import Glibc
import Logging
import WidgetCore

/// One line per event on stderr: `<N>` priority prefix when stderr is a journal stream
/// (so journald keeps the level), a timestamp otherwise.
public struct StderrLogHandler: LogHandler {
    public var logLevel: Logger.Level = .info
    public var metadata: Logger.Metadata = [:]
    public var metadataProvider: Logger.MetadataProvider?
    private let label: String
    private let priorityPrefix: Bool

    public init(label: String, priorityPrefix: Bool) {
        self.label = label
        self.priorityPrefix = priorityPrefix
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        let details = LogText.metadata(metadata, provider: metadataProvider, event: event.metadata)
            .map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        let head = priorityPrefix
            ? "<\(event.level.syslogPriority)>"
            : "\(ISO8601.wholeSecondString(from: Date())) \(event.level)"
        let line = "\(head) \(LogText.message(event.message))\(details.isEmpty ? "" : " " + details)\n"
        // write(2), errors ignored: FileHandle.write traps on EPIPE, and a vanished log reader
        // must not take the daemon down.
        var bytes = Array(line.utf8)
        var offset = 0
        while offset < bytes.count {
            let count = bytes[offset...].withUnsafeMutableBytes { Glibc.write(STDERR_FILENO, $0.baseAddress, $0.count) }
            if count <= 0 { break }
            offset += count
        }
    }
}
