import Foundation
import Synchronization
import Testing

/// The deadline of a process just started: if it is still running when the time is up it is
/// killed, which ends the caller's reads of its pipes and its `waitUntilExit`. `end()`, called
/// once the process has exited, disarms it and fails the test when the process had to be killed
/// (from the test's own context, so the failure is the test's).
final class ProcessDeadline {
    private final class Flag: Sendable {
        private let value = Atomic(false)
        func set() { value.store(true, ordering: .sequentiallyConsistent) }
        var isSet: Bool { value.load(ordering: .sequentiallyConsistent) }
    }

    private let what: String
    private let seconds: Double
    private let item: DispatchWorkItem
    private let fired = Flag()

    init(pid: pid_t, seconds: Double, what: String) {
        self.what = what
        self.seconds = seconds
        item = DispatchWorkItem { [fired] in
            fired.set()
            kill(pid, SIGKILL)
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds, execute: item)
    }

    /// True when the process was killed for running past its deadline.
    var expired: Bool { fired.isSet }

    func end(fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column) {
        item.cancel()
        if expired {
            Issue.record(
                "\(what) did not finish within \(Int(seconds)) s and was killed",
                sourceLocation: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column))
        }
    }
}

extension Process {
    func deadline(_ seconds: Double, _ what: @autoclosure () -> String) -> ProcessDeadline {
        ProcessDeadline(pid: processIdentifier, seconds: seconds, what: what())
    }
}
