/// A record's number in its `InstanceBook`: given when the record is put, kept whatever other
/// records are removed (a removal moves a record to another position, not to another handle),
/// and given to a later record once this one is removed.
///
/// The scheduler numbers its slots by it, so an instance is found by id once, in the book's
/// one id table, and every call after that reaches its record and its slot by index, hashing
/// nothing. A handle is good until its record is removed: whoever keeps one across a removal
/// (a launch waiting for its answer) keeps the id instead and asks the book again.
public struct RecordHandle: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let index: Int32

    @inline(__always)
    public init(_ index: Int32) {
        self.index = index
    }

    /// No record: a placeholder for a member or event whose handle is not known.
    public static let none = RecordHandle(-1)

    public static func < (lhs: RecordHandle, rhs: RecordHandle) -> Bool { lhs.index < rhs.index }

    public var description: String { "#\(index)" }
}
