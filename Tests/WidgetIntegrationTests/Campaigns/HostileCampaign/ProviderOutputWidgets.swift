import Foundation
@testable import WidgetIntegrationSupport

/// Providers that flood one of their outputs with 1 GiB (kind `flood.NAME`). Each answers a
/// good timeline (content "good NAME") while the file `good-NAME` exists in the fixture's
/// folder, and floods otherwise.
enum ProviderOutputWidgets: String, CaseIterable {
    case stderr, stdout

    var kind: String { "flood." + rawValue }

    /// Whether `lastError` (or the log) says what the flood should: the stderr flood's exit
    /// with the end of its last line (1 GiB of NULs, then the message), the stdout flood's size.
    func isExpected(_ error: String?) -> Bool {
        guard let error else { return false }
        switch self {
        case .stderr: return error.contains("exited with status 7: …\\u{0}") && error.contains("\\u{0}stderr flood done")
        case .stdout: return error.contains("answer longer than 4194304 bytes")
        }
    }

    static let script = #"""
        #!/bin/sh
        request=$(cat)
        if [ -e "$2/good-$1" ]; then
          now=$(printf '%s' "$request" | sed -n 's/.*"now":"\([^"]*\)".*/\1/p')
          printf '{"entries":[{"date":"%s","content":"good %s"}],"policy":"never"}\n' "$now" "$1"
          exit 0
        fi
        case "$1" in
        stderr) head -c 1073741824 /dev/zero >&2; echo "stderr flood done" >&2; exit 7 ;;
        stdout) head -c 1073741824 /dev/zero ;;
        esac
        """#

    static func install(in fixture: DaemonFixture) throws {
        try fixture.provider("flood", script)
        for flood in allCases {
            // Room for 1 GiB through a pipe on a loaded machine.
            try fixture.descriptor(flood.kind, exec: ["./flood", flood.rawValue, fixture.directory], timeout: 240)
            flood.setGood(true, in: fixture)
        }
    }

    func setGood(_ good: Bool, in fixture: DaemonFixture) { fixture.setProviderGood(good, rawValue) }
}
