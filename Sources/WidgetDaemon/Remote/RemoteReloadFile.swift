import Foundation
import Glibc
import Logging
import WidgetCore

/// The remote reload budget on disk (`remote-reloads.json` in the state directory), so that
/// deferred reloads and the rolling window survive a restart. Written whole, flushed and
/// renamed into place before a deferral is acknowledged to the broker.
struct RemoteReloadFile: Sendable {
    let path: String

    init(stateDirectory: String) {
        path = stateDirectory + "/remote-reloads.json"
    }

    /// The saved budget; nil when there is none. An unreadable file is logged and set aside
    /// (renamed with `.bad`), not fatal: it only holds remote reload counts.
    func load(logger: Logger) -> RemoteReloadBudget? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        do {
            return try WidgetJSON.decoder.decode(RemoteReloadBudget.self, from: data)
        } catch {
            logger.error("remote reload budget unreadable; starting afresh", metadata: ["path": "\(path)", "error": "\(error)"])
            rename(path, path + ".bad")
            return nil
        }
    }

    func save(_ budget: RemoteReloadBudget) throws {
        let data = try WidgetJSON.encoder.encode(budget)
        let temporary = path + ".tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw ServerError("\(temporary): \(String(cString: strerror(errno)))") }
        // Owner only, as every state file: a file left from before keeps its mode through O_TRUNC.
        fchmod(fd, 0o600)
        let written = data.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        let flushed = fsync(fd) == 0
        close(fd)
        guard written == data.count, flushed, rename(temporary, path) == 0 else {
            throw ServerError("\(path): \(String(cString: strerror(errno)))")
        }
        // The rename itself must reach the disk too.
        let directory = open((path as NSString).deletingLastPathComponent, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directory >= 0 {
            fsync(directory)
            close(directory)
        }
    }
}
