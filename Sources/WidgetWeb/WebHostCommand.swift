import ArgumentParser
import Foundation

/// `widgetd-web --socket PATH --listen HOST:PORT` (docs/hosts.md, "Web host").
public struct WebHostCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "widgetd-web",
        abstract: "Shows widgetd's stacks and widgets in a browser, live.",
        discussion: "GET / is the page. The host is a member of the host group: the page can add, configure and swipe.")

    @Option(help: "widgetd's control socket (default: found as widgetctl finds it).")
    var socket: String?

    @Option(help: "HOST:PORT to serve on (port 0: any free port, printed at start).")
    var listen: String = ListenAddress.standard.description

    public init() {}

    public func validate() throws {
        guard ListenAddress(listen) != nil else {
            throw ValidationError("--listen: expected HOST:PORT (e.g. 127.0.0.1:8080), got '\(listen)'")
        }
    }

    public func run() async throws {
        let address = ListenAddress(listen)!
        try await WebHost(socketPath: socket).run(listening: address)
    }
}
