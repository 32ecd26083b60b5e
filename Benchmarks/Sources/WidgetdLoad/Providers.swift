import BenchSupport
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The providers the load tools install: a POSIX sh script (cheap enough for the request
/// workloads, where launches are rare) and a tiny C program (for the launch figure, so that
/// what is measured is the daemon's work around a launch, not the provider's start-up).
enum BenchProviders {
    /// Timeline answer: one entry at the request's `now`, policy `never` (so nothing reloads
    /// on its own; with `"batch": true` one Timeline serves every instance of the launch).
    static let shellScript = #"""
        #!/bin/sh
        # widgetd-load's provider: one entry at the request's "now", policy never.
        req=$(cat)
        now=$(printf '%s\n' "$req" | tr '\n' ' ' | sed -n 's/.*"now"[[:space:]]*:[[:space:]]*"\([^"]*\)".*/\1/p')
        [ -n "$now" ] || { echo "bench provider: request has no now" >&2; exit 1; }
        case ${1:-} in
        timeline) printf '{"entries":[{"date":"%s","content":{"n":1}}],"policy":"never"}\n' "$now" ;;
        snapshot|placeholder) printf '{"date":"%s","content":{"n":1}}\n' "$now" ;;
        options) echo '{"options":[]}' ;;
        *) echo "usage: $0 timeline|snapshot|placeholder|options" >&2; exit 2 ;;
        esac
        """#

    /// The same answers in C. With `WIDGETD_LOAD_CAPTURE=FILE` in its environment it also
    /// saves the first request it sees to FILE (created exclusively, so only once); every run
    /// pays the same one `access()` for it, with and without the daemon.
    static let cSource = #"""
        #include <fcntl.h>
        #include <stdio.h>
        #include <stdlib.h>
        #include <string.h>
        #include <unistd.h>

        static char request[1 << 20];

        int main(int argc, char **argv) {
            size_t length = 0;
            ssize_t count;
            while ((count = read(0, request + length, sizeof request - 1 - length)) > 0) length += (size_t)count;
            request[length] = 0;

            const char *capture = getenv("WIDGETD_LOAD_CAPTURE");
            if (capture && access(capture, F_OK) != 0) {
                int fd = open(capture, O_WRONLY | O_CREAT | O_EXCL, 0644);
                if (fd >= 0) { if (write(fd, request, length) < 0) {} close(fd); }
            }

            char now[64] = "";
            const char *key = strstr(request, "\"now\"");
            if (key) {
                const char *start = strchr(key + 5, '"');
                const char *end = start ? strchr(start + 1, '"') : NULL;
                if (start && end && end - start - 1 < (long)sizeof now) {
                    memcpy(now, start + 1, (size_t)(end - start - 1));
                    now[end - start - 1] = 0;
                }
            }
            if (!now[0]) { fputs("bench provider: request has no now\n", stderr); return 1; }
            const char *verb = argc > 1 ? argv[1] : "";
            if (!strcmp(verb, "timeline")) {
                printf("{\"entries\":[{\"date\":\"%s\",\"content\":{\"n\":1}}],\"policy\":\"never\"}\n", now);
            } else if (!strcmp(verb, "snapshot") || !strcmp(verb, "placeholder")) {
                printf("{\"date\":\"%s\",\"content\":{\"n\":1}}\n", now);
            } else if (!strcmp(verb, "options")) {
                puts("{\"options\":[]}");
            } else {
                fputs("usage: bench-provider timeline|snapshot|placeholder|options\n", stderr);
                return 2;
            }
            return 0;
        }
        """#

    /// Writes the shell provider to `path` (mode 0755).
    static func installShell(at path: String) throws {
        try shellScript.write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, 0o755)
    }

    /// Compiles the C provider to `path` with the first C compiler found (cc, gcc, clang, or
    /// the clang next to swift). Returns the compiler used, or throws when there is none.
    static func compileC(to path: String) throws -> String {
        let source = path + ".c"
        try cSource.write(toFile: source, atomically: true, encoding: .utf8)
        var candidates = ["cc", "gcc", "clang"].compactMap { LoadProcess.which($0) }
        if let swift = LoadProcess.which("swift", extra: ["/opt/swift/usr/bin"]) {
            let real = (try? FileManager.default.destinationOfSymbolicLink(atPath: swift)).map {
                $0.hasPrefix("/") ? $0 : (swift as NSString).deletingLastPathComponent + "/" + $0
            } ?? swift
            candidates.append((real as NSString).deletingLastPathComponent + "/clang")
        }
        candidates.append("/opt/swift/usr/bin/clang")
        var failures: [String] = []
        for compiler in candidates where access(compiler, X_OK) == 0 {
            let run = try LoadProcess.run([compiler, "-O2", "-o", path, source], timeout: 120)
            if run.termination == .exited(0) { return compiler }
            failures.append("\(compiler): \(run.stderr.prefix(300))")
        }
        throw LoadError("no C compiler could build the provider (\(failures.joined(separator: "; ")))")
    }

    /// A descriptor (one kind) as JSON text.
    static func descriptor(
        kind: String, exec: [String], batch: Bool, intentType: String? = nil, timeout: Int = 15
    ) -> String {
        var object: [String: Any] = [
            "kind": kind,
            "displayName": kind,
            "description": "widgetd-load benchmark kind",
            "supportedFamilies": ["systemSmall", "systemMedium"],
            "provider": ["exec": exec, "batch": batch, "timeout": timeout] as [String: Any],
        ]
        if let intentType {
            object["intent"] = [
                "type": intentType,
                "parameters": [["name": "city", "title": "City", "type": "string"]],
                "supportedCombinations": [["city"]],
            ] as [String: Any]
        }
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }
}
