/// JSON kept as wire bytes at the leaves, so a hostile campaign can put anything where a value
/// goes (`NaN`, invalid UTF-8, 10,000 brackets) while still knowing the frame's shape: which
/// members it has decides whether the daemon must answer it.
indirect enum RawJSON: Sendable {
    case bytes([UInt8])
    case object([(key: String, value: RawJSON)])
    case array([RawJSON])

    static func text(_ text: String) -> RawJSON { .bytes(Array(text.utf8)) }
    static func string(_ value: String) -> RawJSON { .text("\"" + value + "\"") }

    var encoded: [UInt8] {
        var out: [UInt8] = []
        write(into: &out)
        return out
    }

    func write(into out: inout [UInt8]) {
        switch self {
        case .bytes(let bytes):
            out.append(contentsOf: bytes)
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            for (index, member) in members.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                out.append(UInt8(ascii: "\""))
                out.append(contentsOf: member.key.utf8)
                out.append(contentsOf: Array("\":".utf8))
                member.value.write(into: &out)
            }
            out.append(UInt8(ascii: "}"))
        case .array(let items):
            out.append(UInt8(ascii: "["))
            for (index, item) in items.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                item.write(into: &out)
            }
            out.append(UInt8(ascii: "]"))
        }
    }

    /// Paths (member or item positions) to every value below this one, to `depth` levels.
    func paths(depth: Int, prefix: [Int] = []) -> [[Int]] {
        guard depth > 0 else { return [] }
        switch self {
        case .bytes: return []
        case .object(let members):
            return members.indices.flatMap { [prefix + [$0]] + members[$0].value.paths(depth: depth - 1, prefix: prefix + [$0]) }
        case .array(let items):
            return items.indices.flatMap { [prefix + [$0]] + items[$0].paths(depth: depth - 1, prefix: prefix + [$0]) }
        }
    }

    /// This value with the one at `path` replaced, or removed when `value` is nil.
    func replacing(_ path: ArraySlice<Int>, with value: RawJSON?) -> RawJSON {
        guard let step = path.first else { return value ?? self }
        let rest = path.dropFirst()
        switch self {
        case .bytes: return self
        case .object(var members):
            if rest.isEmpty, value == nil {
                members.remove(at: step)
            } else {
                members[step].value = members[step].value.replacing(rest, with: value)
            }
            return .object(members)
        case .array(var items):
            if rest.isEmpty, value == nil {
                items.remove(at: step)
            } else {
                items[step] = items[step].replacing(rest, with: value)
            }
            return .array(items)
        }
    }

    func member(_ key: String) -> RawJSON? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    func setting(_ key: String, to value: RawJSON?) -> RawJSON {
        guard case .object(var members) = self else { return self }
        if let index = members.firstIndex(where: { $0.key == key }) {
            if let value { members[index].value = value } else { members.remove(at: index) }
        } else if let value {
            members.append((key, value))
        }
        return .object(members)
    }
}
