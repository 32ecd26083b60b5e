import Foundation
import Glibc
import WidgetCore

/// Reads a descriptor (or a template it names) with its size known first: a file over the
/// limit is refused without a byte of it read, and nothing but a regular file is opened for
/// reading (a FIFO or a device linked into a widgets directory would block the reader or
/// never end).
enum BoundedFile {
    struct Read {
        var data: Data
        var status: FileStatus
    }

    /// The bytes of `path`, at most `maxBytes`; `rule` (when given) judges the file's own mode
    /// before it is read. Problems name `path`.
    static func read(_ path: String, maxBytes: Int, rule: FileModeRule?, reportAs report: String) throws(DescriptorProblem) -> Read {
        func fail(_ reason: String) -> DescriptorProblem { DescriptorProblem(path: report, reason: reason) }
        // Non-blocking, so that a FIFO swapped in after a check cannot hold the open.
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        guard fd >= 0 else {
            throw fail(errno == ENOENT ? "no such file" : "cannot read file")
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw fail("cannot read file") }
        let type = info.st_mode & S_IFMT
        if type == S_IFDIR { throw fail("is a directory") }
        guard type == S_IFREG else { throw fail("not a regular file") }
        let status = FileTrust.status(info)
        if let rule, let problem = rule.problem(status, path: path) { throw fail(problem) }
        let size = Int(info.st_size)
        if size > maxBytes { throw fail(tooLarge(size, maxBytes)) }
        // One byte more than the limit: a file that grew since fstat is still caught.
        var data = Data(count: size + 1)
        var total = 0
        while total <= maxBytes {
            if total == data.count { data.count = min(maxBytes + 1, data.count * 2) }
            let count = data.withUnsafeMutableBytes { buffer in
                Glibc.read(fd, buffer.baseAddress! + total, buffer.count - total)
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw fail("cannot read file")
            }
            if count == 0 { break }
            total += count
        }
        if total > maxBytes { throw fail(tooLarge(total, maxBytes)) }
        data.count = total
        return Read(data: data, status: status)
    }

    private static func tooLarge(_ size: Int, _ maxBytes: Int) -> String {
        "\(size) bytes, over \(maxBytes) (max-descriptor-bytes in [limits] of widgetd.conf); not read"
    }
}
