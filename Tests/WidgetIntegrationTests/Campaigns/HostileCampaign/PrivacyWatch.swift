import Foundation
@testable import WidgetIntegrationSupport

/// `widgetctl --json watch` running in the background as a test user (or as root), its
/// event lines collected in a file; `stop` ends it.
final class PrivacyWatch {
    let name: String
    private let path: String
    private let process: ChildProcess

    init(_ name: String, user: AuthUsers.User?, users: AuthUsers, fixture: DaemonFixture) throws {
        self.name = name
        path = fixture.directory + "/watch-\(name).log"
        let command = ["--json", "watch"]
        let environment = ["WIDGETD_SOCKET": fixture.socketPath, "PATH": "/usr/bin:/bin", "HOME": "/"]
        if let user {
            process = try ChildProcess(
                "/usr/bin/setpriv", ["--reuid=\(user.uid)", "--regid=\(user.gid)", "--init-groups", "--", users.widgetctl] + command,
                environment: environment, logPath: path)
        } else {
            process = try ChildProcess(TestPaths.widgetctl, command, environment: environment, logPath: path)
        }
    }

    /// The event notifications seen so far, as JSON objects (their `params`).
    var events: [[String: Any]] {
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            ((try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any])?["params"] as? [String: Any]
        }
    }

    /// Everything it printed.
    var text: String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }

    func stop() {
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
    }
}
