import CSystemd
import Glibc

/// Caps glibc's malloc arenas before the daemon's threads start.
///
/// Why: glibc gives threads that contend for the heap arenas of their own (up to eight per
/// core), and the NIO, actor and SQLite threads of widgetd each end up freeing into several
/// of them. Memory freed in one arena is not reused by another, so a long-running daemon's
/// resident memory keeps rising under steady load (Benchmarks/FINDINGS.md has the figures);
/// with one arena it stays flat. The daemon is not always started by its unit, so the cap is set here rather than
/// as `MALLOC_ARENA_MAX` in `widgetd.service`. An administrator's own `MALLOC_ARENA_MAX` wins.
public enum MallocArenas {
    public static let cap: Int32 = 1

    public static func apply() {
        guard getenv("MALLOC_ARENA_MAX") == nil else { return }
        _ = widgetd_cap_malloc_arenas(cap)
    }
}
