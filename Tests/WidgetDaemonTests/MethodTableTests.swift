import Foundation
import Testing
import WidgetCore
import WidgetProtocol
@testable import WidgetDaemon
@testable import WidgetTestSupport

/// The method table serves every spec once, with the spec's access.
@Suite struct MethodTableTests {
    @Test func everySpecIsServedOnceWithItsAccess() {
        let names = MethodTable.all.map(\.name)
        #expect(names.count == Set(names).count, "a method served twice")
        #expect(Set(names) == Set(Methods.all.map { $0.name }))
        #expect(Methods.all.count == Set(Methods.all.map { $0.name }).count, "two specs of one name")
        for spec in Methods.all {
            #expect(MethodTable.byName[spec.name]?.access == spec.access, "\(spec.name)")
            #expect(!spec.summary.isEmpty && !spec.summary.contains("\n"), "\(spec.name): a one-line summary")
            #expect(Methods.named(spec.name).map(ObjectIdentifier.init) == ObjectIdentifier(spec), "\(spec.name)")
        }
    }

    @Test func anUnknownMethodIsNotFound() async throws {
        let harness = try Harness()
        let answer = await harness.call("nope")
        #expect(answer.errorCode == -32601)
        #expect(answer.errorMessage == "method not found: 'nope'")
    }
}
