import Foundation
@testable import WidgetIntegrationSupport

/// `yes > /dev/null` on every core, to run a script under load. The processes are killed when
/// `stop()` is called or, failing that, when this goes away: a failing test never leaves them.
final class BusyCores {
    private var processes: [Process] = []

    init(count: Int) throws {
        for _ in 0..<count {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/yes")
            process.standardOutput = FileHandle.nullDevice
            do {
                try process.run()
            } catch {
                stop()
                throw FixtureError("cannot start yes: \(error)")
            }
            processes.append(process)
        }
    }

    deinit { stop() }

    func stop() {
        for process in processes where process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        processes = []
    }
}
