import Foundation
import Glibc

/// A widgetd-web connected to a daemon's socket, serving on a unix socket of its own; started
/// once that socket exists.
final class WebHostProcess {
    let process: ChildProcess

    init(executable: String, daemonSocket: String, runDirectory: String, timeout: Double = 30) throws {
        let listen = runDirectory + "/footprint-web.sock"
        let log = runDirectory + "/footprint-web.log"
        try? FileManager.default.removeItem(atPath: listen)
        try? FileManager.default.removeItem(atPath: log)
        // The host gives its unix listener a group: this process's own, which it can set.
        guard let group = getgrgid(getgid()) else { throw ScaleError("no name for group \(getgid())") }
        process = try ChildProcess(
            executable: executable,
            arguments: ["--socket", daemonSocket, "--listen", "unix:" + listen, "--unix-group", String(cString: group.pointee.gr_name)],
            logPath: log)
        let deadline = Date().addingTimeInterval(timeout)
        while !FileManager.default.fileExists(atPath: listen) {
            if process.hasExited() { throw ScaleError("widgetd-web exited before serving on \(listen): \(tail(of: log))") }
            guard Date() < deadline else {
                process.stop(grace: 5)
                throw ScaleError("widgetd-web did not serve on \(listen) within \(Int(timeout)) s: \(tail(of: log))")
            }
            usleep(50_000)
        }
    }

    deinit {
        process.stop(grace: 5)
    }
}
