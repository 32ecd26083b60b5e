import ArgumentParser
import Foundation
import NIOCore

/// `widgetd-web --socket PATH --listen HOST:PORT` (docs/hosts.md, "Web host").
public struct WebHostCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "widgetd-web",
        abstract: "Shows widgetd's stacks and widgets in a browser, live.",
        discussion: "GET / is the page. The host is a member of the host group: the page can add, configure and swipe.")

    @Option(help: ArgumentHelp("widgetd's control socket (default: found as widgetctl finds it).", valueName: "PATH"))
    var socket: String?

    @Option(help: ArgumentHelp("Where to serve HTTP (port 0: any free port, printed at start).", valueName: "HOST:PORT"))
    var listen: String = ListenAddress.standard.description

    public init() {}

    public func validate() throws {
        guard ListenAddress(listen) != nil else {
            throw ValidationError("--listen: expected HOST:PORT (e.g. 127.0.0.1:8080), got '\(listen)'")
        }
    }

    public func run() async throws {
        let address = ListenAddress(listen)!
        do {
            try await WebHost(socketPath: socket).run(listening: address)
        } catch let error as IOError {
            // A bind that fails (the port taken, an address not of this machine) says so
            // plainly instead of naming NIO's system call.
            throw ServeError(description: "cannot serve on \(address): \(String(cString: strerror(error.errnoCode)))")
        }
    }
}

/// Why the host could not start serving (exit status 1).
struct ServeError: Error, CustomStringConvertible {
    var description: String
}
