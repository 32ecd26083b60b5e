import Foundation
import Testing
@testable import WidgetCore

/// What a re-read of the widgets directories reports.
@Suite struct DescriptorChangesTests {
    private func descriptor(_ kind: String, name: String? = nil, families: [WidgetFamily] = [.systemSmall]) -> WidgetDescriptor {
        WidgetDescriptor(
            kind: kind, displayName: name ?? kind, description: "", supportedFamilies: families, provider: nil, intent: nil,
            source: "/w/\(kind).json")
    }

    @Test func addedChangedAndRemovedKindsAreListedInNameOrder() {
        let old = ["a": descriptor("a"), "b": descriptor("b"), "c": descriptor("c"), "d": descriptor("d")]
        let new = [
            "a": descriptor("a"), "b": descriptor("b", families: [.systemSmall, .systemLarge]), "d": descriptor("d", name: "D"),
            "f": descriptor("f"), "e": descriptor("e"),
        ]
        let problem = DescriptorProblem(path: "/w/x.json", reason: "not valid JSON")
        let changes = DescriptorChanges(from: old, to: new, problems: [problem])
        #expect(changes.added == ["e", "f"])
        #expect(changes.changed == ["b", "d"])
        #expect(changes.removed == ["c"])
        #expect(changes.problems == [problem])
        #expect(changes.kinds == 5)
        #expect(changes.changesKinds)
    }

    @Test func theSameDescriptorsChangeNothing() {
        let same = ["a": descriptor("a")]
        let changes = DescriptorChanges(from: same, to: same, problems: [])
        #expect(!changes.changesKinds)
        #expect(changes == DescriptorChanges(kinds: 1))
    }
}
