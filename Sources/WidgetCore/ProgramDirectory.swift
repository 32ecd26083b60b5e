/// Whether a provider's program can be started. Asked as descriptors load, so that a kind whose
/// program is missing says so where kinds are listed, not only when its first launch fails.
/// The daemon and `widgetctl widgets check` look at the file system; the core cannot.
public protocol ProgramDirectory: Sendable {
    /// nil when `program` (a path, or a bare name looked up on PATH) can be run; else why not.
    func problem(running program: String) -> String?
    /// As `problem(running:)`, for the kind `owner` owns: also nil only when no one but root,
    /// the daemon's user or that owner can change the program (`FileModeRule`).
    func problem(running program: String, owner: KindOwner?) -> String?
}

extension ProgramDirectory {
    public func problem(running program: String, owner: KindOwner?) -> String? { problem(running: program) }
}

/// Takes every program as runnable: for parsing where there is no file system to ask.
public struct UncheckedPrograms: ProgramDirectory {
    public init() {}

    public func problem(running program: String) -> String? { nil }
}
