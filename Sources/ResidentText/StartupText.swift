import Glibc

/// Lets go of the program text that start-up ran, once a long-running program is up.
///
/// Why: the kernel maps program text in blocks around each page executed, so argument
/// parsing, opening the store, migrations and binding sockets leave much of the program's code
/// mapped into the process, code an idle daemon never runs again and that VmRSS counts. Dropping
/// the mappings' page-table entries is safe for code: it is read-only and never changed in
/// memory, so the next call into it maps the same pages back from the page cache (which keeps
/// them while memory allows, shared with every other process running them). Data mappings
/// are never touched: a writable or relocated page dropped would lose its contents.
public enum StartupText {
    /// Seconds after a program reports itself up that its start-up work may still run: long
    /// enough for the work that follows readiness, short of the seconds a watcher of an idle
    /// daemon lets it settle.
    public static let settlingSeconds: Int64 = 1

    /// Drops this process's page-table entries for every executable mapping of a file (the
    /// program's text and its libraries'); returns the bytes of address space released.
    @discardableResult
    public static func release() -> Int {
        guard let maps = fopen("/proc/self/maps", "re") else { return 0 }
        defer { fclose(maps) }
        var released = 0
        var line: UnsafeMutablePointer<CChar>?
        var capacity = 0
        defer { free(line) }
        while getline(&line, &capacity, maps) > 0, let line {
            guard let mapping = CodeMapping(String(cString: line)) else { continue }
            if madvise(UnsafeMutableRawPointer(bitPattern: mapping.start), mapping.length, MADV_DONTNEED) == 0 {
                released += mapping.length
            }
        }
        return released
    }
}
