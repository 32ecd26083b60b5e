import Foundation
import Glibc

/// One of the session's services, mocked by Debian's `python3-dbusmock` from one of its
/// templates (`logind`, `upower`, `power_profiles_daemon`, `bluez5`) or from a template file
/// (`GeoClueMock`), on a test's private bus taken as the system bus. Driven with `busctl` through
/// the mock's own interface (`org.freedesktop.DBus.Mock`); every method call it receives is in
/// `callLog`.
final class SessionMock {
    static let python = "/usr/bin/python3"

    /// Why the tests cannot run here, or nil (scripts/setup installs python3-dbusmock).
    static var unavailable: String? {
        if let missing = PrivateBus.unavailable { return missing }
        let probe = CommandRun.run(python, ["-c", "import dbusmock"], environment: ["PATH": "/usr/bin:/bin"], deadline: 60)
        return probe.status == 0 ? nil : "python3-dbusmock is missing (scripts/setup installs it): \(probe.stderr)"
    }

    let name: String
    let path: String
    let bus: PrivateBus
    let template: String
    let parameters: String?
    let callLog: String
    /// The interface of the template's own helpers (`AddSession`, `AddDevice`, …).
    let helpers: String
    private var process: ChildProcess?

    /// Starts the mock and waits until it owns `name`.
    init(
        _ template: String, name: String, path: String, on bus: PrivateBus, parameters: String? = nil,
        helpers: String = "org.freedesktop.DBus.Mock"
    ) throws {
        self.template = template
        self.helpers = helpers
        self.name = name
        self.path = path
        self.bus = bus
        self.parameters = parameters
        let label = (template as NSString).lastPathComponent.replacingOccurrences(of: ".py", with: "")
        callLog = bus.directory + "/\(label)-calls.log"
        try start()
    }

    deinit {
        process = nil  // a mock still running is killed
    }

    /// Starts it (again, after `stop`) and waits until it owns its name.
    func start() throws {
        if let unavailable = Self.unavailable { throw FixtureError(unavailable) }
        var arguments = ["-m", "dbusmock", "--system", "-t", template, "-l", callLog]
        if let parameters { arguments += ["-p", parameters] }
        let environment = ["PATH": "/usr/bin:/bin", "DBUS_SYSTEM_BUS_ADDRESS": bus.address, "PYTHONUNBUFFERED": "1"]
        process = try ChildProcess(Self.python, arguments, environment: environment, logPath: callLog + ".out")
        try Poll.until("the \(template) mock owning \(name) on the test's bus") {
            bus.busctl(["status", name]).status == 0
        }
    }

    /// SIGKILL, as a service that crashes; returns once its name is gone.
    func stop() throws {
        guard let process else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit(within: 30)
        self.process = nil
        try Poll.until("\(name) gone from the test's bus") { bus.busctl(["status", name]).status != 0 }
    }

    /// `busctl call NAME OBJECT INTERFACE METHOD SIGNATURE ARGS...`; throws when it fails.
    @discardableResult
    func call(_ object: String, _ interface: String, _ method: String, _ signature: String = "", _ args: [String] = []) throws -> String {
        let result = bus.busctl(["call", name, object, interface, method] + (signature.isEmpty ? [] : [signature] + args))
        guard result.status == 0 else { throw FixtureError("busctl call \(name) \(object) \(method) failed: \(result.stderr)") }
        return result.stdout
    }

    /// A helper of the template (`helpers`) on its main object.
    @discardableResult
    func helper(_ method: String, _ signature: String = "", _ args: [String] = []) throws -> String {
        try call(path, helpers, method, signature, args)
    }

    /// A method of dbusmock's own interface on `object` (default: the main object).
    @discardableResult
    func mock(_ method: String, _ signature: String = "", _ args: [String] = [], object: String? = nil) throws -> String {
        try call(object ?? path, "org.freedesktop.DBus.Mock", method, signature, args)
    }

    /// Sets properties of `interface` on `object`, which emits `PropertiesChanged` (args as busctl
    /// takes an `a{sv}`: count, then name, type, value of each).
    func update(_ object: String, _ interface: String, _ properties: [String]) throws {
        try mock("UpdateProperties", "sa{sv}", [interface] + properties, object: object)
    }

    /// Emits `interface.member` from `object` as the service (args as busctl takes an `av`).
    func emit(_ object: String, _ interface: String, _ member: String, _ signature: String, _ args: [String]) throws {
        try mock("EmitSignal", "sssav", [interface, member, signature] + args, object: object)
    }

    /// What the mock was called with so far (dbusmock's log: one line per call).
    func calls() -> String {
        (try? String(contentsOfFile: callLog, encoding: .utf8)) ?? ""
    }
}
