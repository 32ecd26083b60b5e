import Foundation
import Glibc

/// A real `mosquitto` broker for the remote update tests: on a free loopback port or a unix
/// socket, with its own config file, persistence and log in a folder of the test's (never the
/// system service). Published to with the real `mosquitto_pub -q 1`.
final class MosquittoBroker {
    static let broker = "/usr/sbin/mosquitto"
    static let publisher = "/usr/bin/mosquitto_pub"
    static let subscriber = "/usr/bin/mosquitto_sub"

    /// Why the tests cannot run here, or nil (scripts/setup installs both).
    static var unavailable: String? {
        for tool in [broker, publisher, subscriber, "/usr/bin/mosquitto_passwd", "/usr/bin/openssl"] where !FileManager.default.isExecutableFile(atPath: tool) {
            return "\(tool) is missing (scripts/setup installs mosquitto, mosquitto-clients and openssl)"
        }
        return nil
    }

    let directory: String
    /// The TCP port; 0 when it listens on `socketPath` instead.
    let port: Int
    var socketPath: String { directory + "/mqtt.sock" }
    var configPath: String { directory + "/mosquitto.conf" }
    var logPath: String { directory + "/mosquitto.log" }
    private var process: ChildProcess?

    /// With a login: the only account the broker takes (anonymous clients are refused).
    let login: (user: String, password: String)?

    /// With TLS: the CA that signed the broker's certificate (made for the test by `openssl`).
    private(set) var caFile: String?

    /// Writes the config in `directory` and starts the broker.
    init(
        in directory: String, unixSocket: Bool = false, login: (user: String, password: String)? = nil, tls: Bool = false
    ) throws {
        self.directory = directory
        self.login = login
        try FileManager.default.createDirectory(atPath: directory + "/data", withIntermediateDirectories: true)
        port = unixSocket ? 0 : try Self.freePort()
        var access = "allow_anonymous true"
        if let login {
            let passwords = directory + "/passwords"
            let made = ProgramRun.run(
                "/usr/bin/mosquitto_passwd", ["-b", "-c", passwords, login.user, login.password], deadline: 60, what: "mosquitto_passwd")
            guard made.status == 0 else { throw FixtureError("mosquitto_passwd failed: \(made.stderr)") }
            access = "allow_anonymous false\npassword_file \(passwords)"
        }
        // As root, mosquitto would switch to the "mosquitto" account, which cannot write here.
        let user = getpwuid(geteuid()).map { String(cString: $0.pointee.pw_name) } ?? "root"
        if tls {
            let files = try Self.certificates(in: directory + "/tls")
            caFile = files.ca
            access += "\ncafile \(files.ca)\ncertfile \(files.certificate)\nkeyfile \(files.key)"
        }
        try """
            listener \(port) \(port == 0 ? socketPath : "127.0.0.1")
            \(access)
            persistence true
            persistence_location \(directory)/data/
            user \(user)
            log_dest stderr
            log_type error
            log_type warning
            log_type notice
            """.write(toFile: configPath, atomically: true, encoding: .utf8)
        try start()
    }

    deinit {
        process = nil  // kills a broker still running
    }

    /// `mqtt://127.0.0.1:PORT` or `mqtt+unix:///PATH`.
    var url: String { port == 0 ? "mqtt+unix://" + socketPath : "mqtt://127.0.0.1:\(port)" }

    /// Where `mosquitto_pub` connects.
    private var address: [String] {
        (port == 0 ? ["--unix", socketPath] : ["-h", "127.0.0.1", "-p", "\(port)"])
            + (login.map { ["-u", $0.user, "-P", $0.password] } ?? []) + (caFile.map { ["--cafile", $0] } ?? [])
    }

    /// A CA and a certificate for 127.0.0.1 signed by it, valid for two days.
    private static func certificates(in directory: String) throws -> (ca: String, certificate: String, key: String) {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let ca = directory + "/ca.pem"
        let certificate = directory + "/server.pem"
        let key = directory + "/server.key"
        for arguments in [
            ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", directory + "/ca.key", "-out", ca, "-days", "2",
             "-subj", "/CN=widgetd test CA"],
            ["req", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", directory + "/server.csr", "-subj", "/CN=127.0.0.1",
             "-addext", "subjectAltName=IP:127.0.0.1"],
            ["x509", "-req", "-in", directory + "/server.csr", "-CA", ca, "-CAkey", directory + "/ca.key", "-CAcreateserial",
             "-out", certificate, "-days", "2", "-copy_extensions", "copy"],
        ] {
            let made = ProgramRun.run("/usr/bin/openssl", arguments, deadline: 60, what: "openssl \(arguments[0])")
            guard made.status == 0 else { throw FixtureError("openssl \(arguments.joined(separator: " ")) failed") }
        }
        return (ca, certificate, key)
    }

    /// Starts the broker and waits until it accepts connections.
    func start() throws {
        var environment = ProcessInfo.processInfo.environment
        environment.removeValue(forKey: "NOTIFY_SOCKET")
        process = try ChildProcess(Self.broker, ["-c", configPath], environment: environment, logPath: logPath)
        try Poll.until("mosquitto listening on \(url)", within: 20) {
            port == 0 ? Self.accepts(socket: socketPath) : Self.accepts(port: port)
        }
    }

    /// SIGTERM (it saves its persistence file) and wait.
    func stop() {
        guard let process else { return }
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit(within: 30)
        self.process = nil
    }

    /// Publishes each payload to `topic` with QoS 1, in order, in one `mosquitto_pub` (one
    /// message per line of its input). Returns when the broker has acknowledged them all.
    func publish(_ topic: String, _ payloads: [String]) throws {
        for payload in payloads where payload.contains("\n") {
            throw FixtureError("payload with a newline cannot be published a line at a time: \(payload)")
        }
        let result = try run(["-t", topic, "-l"], stdin: payloads.map { $0 + "\n" }.joined())
        guard result == 0 else { throw FixtureError("mosquitto_pub to \(topic) failed (exit \(result)); log:\n\(log())") }
    }

    /// One message.
    func publish(_ topic: String, _ payload: String) throws {
        let result = try run(["-t", topic, "-m", payload], stdin: nil)
        guard result == 0 else { throw FixtureError("mosquitto_pub to \(topic) failed (exit \(result)); log:\n\(log())") }
    }

    /// A `mosquitto_sub -d -v` on `topic` until stopped, its output in `output`. Ready once
    /// `output` shows the SUBACK (`subscribed(output)`).
    func subscriber(_ topic: String, output: String) throws -> ChildProcess {
        // Line-buffered: into a file, its debug lines would wait in a full buffer.
        try ChildProcess(
            "/usr/bin/stdbuf", ["-oL", Self.subscriber] + address + ["-d", "-v", "-q", "1", "-t", topic],
            environment: ProcessInfo.processInfo.environment, logPath: output)
    }

    static func subscribed(_ output: String) -> Bool {
        ((try? String(contentsOfFile: output, encoding: .utf8)) ?? "").contains("received SUBACK")
    }

    /// The retained message of `topic`, waiting at most `seconds` for it.
    func retained(_ topic: String, within seconds: Int = 20) throws -> String {
        let read = ProgramRun.run(
            Self.subscriber, address + ["-C", "1", "-W", "\(seconds)", "--retained-only", "-t", topic], deadline: Double(seconds + 30),
            what: "mosquitto_sub \(topic)")
        return read.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Removes the retained message of `topic` (an empty retained message).
    func clearRetained(_ topic: String) throws {
        let result = try run(["-t", topic, "-r", "-n"], stdin: nil)
        guard result == 0 else { throw FixtureError("clearing the retained \(topic) failed (exit \(result))") }
    }

    func log() -> String {
        (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
    }

    private func run(_ arguments: [String], stdin: String?) throws -> Int32 {
        ProgramRun.run(
            Self.publisher, address + ["-q", "1", "-i", "widgetd-test-pub-\(getpid())"] + arguments, stdin: stdin, deadline: 60,
            what: "mosquitto_pub \(arguments.joined(separator: " "))"
        ).status
    }

    /// A loopback port nobody listens on now (the kernel's pick).
    private static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw FixtureError("socket: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                bind(fd, raw, length) == 0 && getsockname(fd, raw, &length) == 0
            }
        }
        guard bound else { throw FixtureError("bind: \(String(cString: strerror(errno)))") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    private static func accepts(port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }

    private static func accepts(socket path: String) -> Bool {
        let fd = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return false }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) == 0 }
        }
    }
}
