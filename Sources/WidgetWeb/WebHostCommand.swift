import ArgumentParser
import Foundation
import NIOCore

/// `widgetd-web --socket PATH --listen HOST:PORT|unix:PATH ...` (docs/hosts.md, "Web host").
public struct WebHostCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "widgetd-web",
        abstract: "Shows widgetd's stacks and widgets in a browser, live.",
        discussion: """
            GET / is the page. The host is a member of the host group: the page can add, configure and swipe, and \
            whoever reaches a TCP listener gets those rights; a unix listener's file mode decides who connects.
            """)

    static let connectionRange = 1...100_000
    static let idleTimeoutRange = 1...3600

    @Option(help: ArgumentHelp("widgetd's control socket (default: found as widgetctl finds it).", valueName: "PATH"))
    var socket: String?

    @Option(
        help: ArgumentHelp(
            "Where to serve HTTP: HOST:PORT (port 0: any free port, printed at start) or unix:PATH (mode 0660, group --unix-group); repeatable. Default \(ListenAddress.standard).",
            valueName: "ADDRESS"))
    var listen: [String] = []

    @Option(help: ArgumentHelp("Connections each listener holds at once; one more gets 503 (\(connectionRange.lowerBound)...\(connectionRange.upperBound)).", valueName: "N"))
    var maxConnections: Int = 1000

    @Option(
        help: ArgumentHelp(
            "Seconds a connection may hold a slot without a request under way (an unfinished request head counts as none); then it is closed (\(idleTimeoutRange.lowerBound)...\(idleTimeoutRange.upperBound)).",
            valueName: "SECONDS"))
    var idleTimeout: Int = 60

    @Option(help: ArgumentHelp("The group a unix listener's socket is given.", valueName: "GROUP"))
    var unixGroup: String = "widgetd"

    public init() {}

    var listeners: [Listener] {
        listen.isEmpty ? [.tcp(.standard)] : listen.compactMap(Listener.init)
    }

    public func validate() throws {
        for text in listen where Listener(text) == nil {
            throw ValidationError("--listen: expected HOST:PORT (e.g. 127.0.0.1:8080) or unix:PATH, got '\(text)'")
        }
        guard Self.connectionRange.contains(maxConnections) else {
            throw ValidationError("--max-connections: \(Self.connectionRange.lowerBound)...\(Self.connectionRange.upperBound), got \(maxConnections)")
        }
        guard Self.idleTimeoutRange.contains(idleTimeout) else {
            throw ValidationError("--idle-timeout: \(Self.idleTimeoutRange.lowerBound)...\(Self.idleTimeoutRange.upperBound), got \(idleTimeout)")
        }
    }

    public func run() async throws {
        let listeners = self.listeners
        do {
            try await WebHost(socketPath: socket).run(
                listening: listeners, maxConnections: maxConnections, idleTimeout: .seconds(Int64(idleTimeout)), unixGroup: unixGroup)
        } catch let error as IOError {
            // A bind that fails (the port taken, an address not of this machine, a folder that
            // is not there) says so plainly instead of naming NIO's system call.
            let places = listeners.map(\.description).joined(separator: ", ")
            throw ServeError(description: "cannot serve on \(places): \(String(cString: strerror(error.errnoCode)))")
        }
    }
}

/// Why the host could not start serving (exit status 1).
struct ServeError: Error, CustomStringConvertible {
    var description: String
}
