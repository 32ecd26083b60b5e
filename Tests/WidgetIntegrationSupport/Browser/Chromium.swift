import Foundation

/// Debian's Chromium, headless, on one URL, in a process group of its own: `close` (and the
/// end of the test) kills the browser and every helper it started, and nothing else.
final class Chromium {
    static let executable = "/usr/bin/chromium"

    private let process: ChildProcess
    let url: String
    let logPath: String
    /// The DevTools HTTP and WebSocket port Chromium picked.
    let devToolsPort: Int

    init(url: String, directory: String, width: Int = 1280, height: Int = 900) throws {
        guard FileManager.default.isExecutableFile(atPath: Self.executable) else {
            throw FixtureError("\(Self.executable) is missing: scripts/setup installs Debian's chromium")
        }
        self.url = url
        logPath = directory + "/chromium.log"
        let arguments = [
            "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
            "--no-default-browser-check", "--hide-scrollbars", "--mute-audio", "--remote-debugging-port=0",
            "--user-data-dir=\(directory)/chromium-profile", "--window-size=\(width),\(height)", url,
        ]
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = directory
        process = try ChildProcess(Self.executable, arguments, environment: environment, logPath: logPath, ownGroup: true)
        var port: Int?
        let log = logPath
        do {
            try Poll.until("Chromium to print \"DevTools listening on\"", within: 60) {
                let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
                guard let line = text.split(separator: "\n").first(where: { $0.contains("DevTools listening on ws://") }),
                    let address = line.split(separator: " ").last, let url = URL(string: String(address))
                else { return false }
                port = url.port
                return true
            }
        } catch {
            process.killGroup()
            throw FixtureError("\(error); Chromium's log:\n\((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")")
        }
        devToolsPort = port!
    }

    deinit { process.killGroup() }

    /// Ends the browser and its helpers now (a page closed: its connections go with it).
    func close() { process.killGroup() }

    /// The first tab, once it shows up in `/json/list` and has loaded the URL it was started
    /// on. The web host's page arrives drawn, so its cards are there before its script runs;
    /// once the page has loaded, the script has run and its controls work.
    func page() throws -> DevToolsPage {
        var address: String?
        try Poll.until("Chromium's page target", within: 30) {
            let body = (try? StreamConnection.get(port: devToolsPort, "/json/list")) ?? "[]"
            let targets = (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [[String: Any]] ?? []
            address = targets.first { $0["type"] as? String == "page" }?["webSocketDebuggerUrl"] as? String
            return address != nil
        }
        let page = try DevToolsPage(webSocketURL: address!)
        let loaded = "location.href === '\(url)' && document.readyState === 'complete'"
        try page.waitFor("Chromium to load \(url)", within: 30, loaded) { $0 as? Bool == true }
        return page
    }
}
