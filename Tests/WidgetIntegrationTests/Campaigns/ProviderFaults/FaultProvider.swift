import Foundation
@testable import WidgetIntegrationSupport

/// The provider faults of the campaign, one scripted provider each (kind `fault.NAME`).
/// Every script answers a good timeline (content "good NAME") while the file `good-NAME`
/// exists in the fixture's folder, and misbehaves in its own way otherwise.
enum FaultProvider: String, CaseIterable {
    case hang, segv, abrt, exit, garbage, flood, drip, orphan

    var kind: String { "fault." + rawValue }

    /// Its time-out: short for the faults that run into it.
    var timeout: Double { self == .hang || self == .drip ? 3 : 10 }

    /// What `lastError` (and the log) must say, or nil when the fault is not a failure.
    var expectedError: String? {
        switch self {
        case .hang, .drip: "timed out after 3 s and was killed"
        case .segv: "killed by signal 11"
        case .abrt: "killed by signal 6"
        case .exit: "exited with status 3: upstream unavailable"
        case .garbage: "invalid answer: not JSON (line 1, column 19: expected a value, found ',')"
        case .flood: "answer longer than 4194304 bytes"
        case .orphan: nil
        }
    }

    /// One script for every fault; `$1` names the fault, `$2` is the fixture's folder.
    static let script = #"""
        #!/bin/sh
        request=$(cat)
        now=$(printf '%s' "$request" | sed -n 's/.*"now":"\([^"]*\)".*/\1/p')
        good() { printf '{"entries":[{"date":"%s","content":"%s"}],"policy":"never"}\n' "$now" "$1"; }
        if [ -e "$2/good-$1" ]; then good "good $1"; exit 0; fi
        # No core files from the crashes.
        ulimit -c 0
        case "$1" in
        hang) sleep 600 ;;
        segv) kill -SEGV $$ ;;
        abrt) kill -ABRT $$ ;;
        exit)
          # Then, once told so, failing another way: the run of exit 3 ends.
          if [ -e "$2/exit-now-garbage" ]; then echo "not json"; exit 0; fi
          echo "upstream unavailable" >&2; exit 3 ;;
        garbage) printf '{"entries": [1, 2,, 3]}' ;;
        flood) head -c 104857600 /dev/zero ;;
        drip) while :; do printf x; sleep 0.15; done ;;
        orphan)
          # A child that keeps the pipes open, and one that leaves the process group and
          # the session (setsid) and keeps them open too. Once that one has left (or the exit
          # would take it along), a good answer, and exit.
          sleep 600 &
          echo $! > "$2/orphan-child"
          setsid sh -c 'echo $$ > "$1.tmp"; mv "$1.tmp" "$1"; exec sleep 600' - "$2/orphan-escaped" &
          while [ ! -e "$2/orphan-escaped" ]; do sleep 0.05; done
          good "orphan answer"
          ;;
        esac
        """#

    static func install(in fixture: DaemonFixture) throws {
        try fixture.provider("fault", script)
        for fault in allCases {
            try fixture.descriptor(fault.kind, exec: ["./fault", fault.rawValue, fixture.directory], timeout: fault.timeout)
        }
    }

    static func setGood(_ good: Bool, _ fault: FaultProvider, in fixture: DaemonFixture) { fixture.setProviderGood(good, fault.rawValue) }
}
