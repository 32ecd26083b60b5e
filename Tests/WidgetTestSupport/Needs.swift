import Foundation
import Testing

/// A real component a test cannot run without (a user, a broker, a bus, root). A test that
/// cannot get it fails and says why: a skip would let a run pass without the check.
struct Needs: TestTrait, SuiteTrait, TestScoping {
    /// Why the component is missing, or nil when it is there. Asked only when the test runs,
    /// so a filtered-out test probes nothing.
    let missing: @Sendable () -> String?

    var isRecursive: Bool { true }

    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        // A suite's own scope runs its tests; only a test (or one of its cases) checks.
        if test.isSuite { return try await function() }
        if let missing = missing() { throw MissingComponent(reason: missing) }
        try await function()
    }
}

/// The failure of a test whose real component is missing.
struct MissingComponent: Error, CustomStringConvertible {
    let reason: String
    var description: String { "cannot run, a real component is missing: \(reason)" }
}

extension Trait where Self == Needs {
    /// The test needs something `missing` describes when it is absent (nil: present).
    static func needs(_ missing: @autoclosure @escaping @Sendable () -> String?) -> Self {
        Needs(missing: missing)
    }

    /// The test needs root.
    static var needsRoot: Self {
        Needs { getuid() == 0 ? nil : "needs root" }
    }
}
