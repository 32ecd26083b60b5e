import Foundation

/// What a re-read of the widgets directories changed: kinds that appeared, kinds whose
/// descriptor differs in any field (families, provider, schema, owner, the file it came
/// from), kinds that went, and the files skipped now. The answer of `widgets.reload`, the
/// fields of its log line and of the `widgets` event.
public struct DescriptorChanges: Sendable, Hashable, Codable {
    public var added: [String]
    public var changed: [String]
    public var removed: [String]
    /// Every file skipped by this read, not only new ones: a problem stays until it is fixed.
    public var problems: [DescriptorProblem]
    /// Kinds loaded after the read.
    public var kinds: Int

    public init(added: [String] = [], changed: [String] = [], removed: [String] = [], problems: [DescriptorProblem] = [], kinds: Int = 0) {
        self.added = added
        self.changed = changed
        self.removed = removed
        self.problems = problems
        self.kinds = kinds
    }

    /// The difference from `old` to `new`, kinds in name order.
    public init(from old: [String: WidgetDescriptor], to new: [String: WidgetDescriptor], problems: [DescriptorProblem]) {
        self.init(
            added: new.keys.filter { old[$0] == nil }.sorted(),
            changed: new.compactMap { kind, descriptor in old[kind].map { $0 == descriptor ? nil : kind } ?? nil }.sorted(),
            removed: old.keys.filter { new[$0] == nil }.sorted(),
            problems: problems, kinds: new.count)
    }

    /// Whether any kind appeared, changed or went.
    public var changesKinds: Bool { !(added.isEmpty && changed.isEmpty && removed.isEmpty) }
}
