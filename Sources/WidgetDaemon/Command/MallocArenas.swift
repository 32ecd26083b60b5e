import Glibc

/// glibc's `mallopt`: <malloc.h> is not part of the Glibc module, so it is declared here with
/// its C signature, `int mallopt(int param, int value)`.
@_silgen_name("mallopt")
private func glibcMallopt(_ parameter: Int32, _ value: Int32) -> Int32

/// Caps glibc's malloc arenas before the daemon's threads start.
///
/// Why: glibc gives threads that contend for the heap arenas of their own (up to eight per
/// core), and the NIO, actor and SQLite threads of widgetd each end up freeing into several
/// of them. Memory freed in one arena is not reused by another, so RSS grew 13% over a
/// simulated day at 10,000 instances and kept rising (issue 5's day row); with one arena it
/// was flat. The daemon is not always started by its unit, so the cap is set here rather than
/// as `MALLOC_ARENA_MAX` in `widgetd.service`. An administrator's own `MALLOC_ARENA_MAX` wins.
public enum MallocArenas {
    public static let cap: Int32 = 1
    /// M_ARENA_MAX in <malloc.h>.
    static let arenaMaxParameter: Int32 = -8

    public static func apply() {
        guard getenv("MALLOC_ARENA_MAX") == nil else { return }
        _ = glibcMallopt(arenaMaxParameter, cap)
    }
}
