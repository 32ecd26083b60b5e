import CSystemd
import Foundation
import Logging

/// Logs natively to the journal with `sd_journal_sendv`: MESSAGE, PRIORITY,
/// SYSLOG_IDENTIFIER, CODE_*, and every metadata key as a sanitised structured field.
public struct JournalLogHandler: LogHandler {
    public var logLevel: Logger.Level = .info
    public var metadata: Logger.Metadata = [:]
    public var metadataProvider: Logger.MetadataProvider?
    private let label: String

    public init(label: String) {
        self.label = label
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var fields = [
            "MESSAGE=\(LogText.message(event.message))",
            "PRIORITY=\(event.level.syslogPriority)",
            "SYSLOG_IDENTIFIER=widgetd",
            "LOGGER=\(label)",
            "CODE_FILE=\(event.file)",
            "CODE_LINE=\(event.line)",
            "CODE_FUNC=\(event.function)",
        ]
        for (key, value) in LogText.metadata(metadata, provider: metadataProvider, event: event.metadata) {
            fields.append("\(Self.fieldName(key))=\(value)")
        }
        Self.send(fields)
    }

    private static func send(_ fields: [String]) {
        let buffers = fields.map { Array($0.utf8) }
        var storage = buffers.map { bytes -> UnsafeMutableRawPointer in
            let pointer = UnsafeMutableRawPointer.allocate(byteCount: max(bytes.count, 1), alignment: 1)
            bytes.withUnsafeBytes { pointer.copyMemory(from: $0.baseAddress!, byteCount: bytes.count) }
            return pointer
        }
        defer { storage.forEach { $0.deallocate() } }
        var vectors = zip(storage.indices, buffers).map { index, bytes in
            iovec(iov_base: storage[index], iov_len: bytes.count)
        }
        _ = sd_journal_sendv(&vectors, CInt(vectors.count))
        storage = []
    }

    /// Journal field names: upper-case letters, digits and `_`, not starting with `_` or a digit.
    static func fieldName(_ key: String) -> String {
        var name = String(key.uppercased().unicodeScalars.map { scalar -> Character in
            (scalar.isASCII && (("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar))) ? Character(scalar) : "_"
        })
        while name.hasPrefix("_") { name.removeFirst() }
        if name.isEmpty || name.first!.isNumber { name = "F" + name }
        return String(name.prefix(64))
    }
}

extension Logger.Level {
    /// syslog priorities 0..7 as the journal and `<N>` prefixes use them.
    var syslogPriority: Int {
        switch self {
        case .trace, .debug: 7
        case .info: 6
        case .notice: 5
        case .warning: 4
        case .error: 3
        case .critical: 2
        }
    }
}
