import Foundation

/// Which tasks an instance has ticked, kept in a small JSON file the provider owns,
/// `DIRECTORY/INSTANCE.json` holding `{"done": ["milk", ...]}`.
///
/// DIRECTORY is `$STATE_DIRECTORY/examples/todo`: systemd sets `STATE_DIRECTORY` to widgetd's
/// state directory (`StateDirectory=widgetd`), the one place besides a private /tmp that the
/// service's sandbox lets a provider write, and `scripts/run` sets it to the state directory it
/// gives widgetd. Without it, widgetd's own default state directory is used.
struct ToDoStore {
    let file: String

    init(instance: String?, environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        guard let instance, !instance.isEmpty,
            instance.unicodeScalars.allSatisfy({ $0.isASCII && (CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == "_") })
        else { throw ToDoError.badInstance(instance ?? "(none)") }
        file = Self.directory(environment) + "/" + instance + ".json"
    }

    static func directory(_ environment: [String: String]) -> String {
        if let state = environment["STATE_DIRECTORY"]?.split(separator: ":").first, !state.isEmpty {
            return state + "/examples/todo"
        }
        if geteuid() == 0 { return "/var/lib/widgetd/examples/todo" }
        if let state = environment["XDG_STATE_HOME"], !state.isEmpty { return state + "/widgetd/examples/todo" }
        return (environment["HOME"] ?? NSHomeDirectory()) + "/.local/state/widgetd/examples/todo"
    }

    /// The ticked task ids; none while the file does not exist.
    func ticked() throws -> Set<String> {
        guard let data = FileManager.default.contents(atPath: file) else { return [] }
        do {
            return Set(try JSONDecoder().decode(Ticks.self, from: data).done)
        } catch {
            throw ToDoError.unreadable(file, "\(error)")
        }
    }

    /// Reads, changes and writes the ticks under an exclusive lock, so two launches for the same
    /// instance cannot lose each other's change; the file is replaced whole (rename), so a
    /// reader never sees half of it.
    func update(_ change: (inout Set<String>) -> Void) throws {
        let directory = (file as NSString).deletingLastPathComponent
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw ToDoError.unwritable(directory, "\(error)")
        }
        let lock = open(file + ".lock", O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
        guard lock >= 0 else { throw ToDoError.unwritable(file + ".lock", String(cString: strerror(errno))) }
        defer { close(lock) }
        guard flock(lock, LOCK_EX) == 0 else { throw ToDoError.unwritable(file + ".lock", String(cString: strerror(errno))) }
        var ticked = try ticked()
        change(&ticked)
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            try encoder.encode(Ticks(done: ticked.sorted())).write(to: URL(fileURLWithPath: file), options: .atomic)
        } catch {
            throw ToDoError.unwritable(file, "\(error)")
        }
    }

    private struct Ticks: Codable {
        var done: [String]
    }
}

/// Why the to-do example could not perform an action: one line, which widgetd logs and the
/// host shows.
enum ToDoError: Error, CustomStringConvertible {
    case unknownTask(String)
    case badInstance(String)
    case unreadable(String, String)
    case unwritable(String, String)

    var description: String {
        switch self {
        case .unknownTask(let task): "no task '\(task)' in any list"
        case .badInstance(let instance): "'\(instance)' is not an instance id this example can keep ticks for"
        case .unreadable(let file, let reason): "cannot read \(file): \(reason)"
        case .unwritable(let path, let reason): "cannot write \(path): \(reason)"
        }
    }
}
