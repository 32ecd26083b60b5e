import Foundation
import Testing
@testable import WidgetTestSupport
import WidgetCore
import WidgetProtocol

/// docs/protocol.md's method table says what the specs declare: every method once, its params
/// (which may be left out), and who may call it; and nothing else.
@Suite struct ProtocolDocTests {
    /// One row of the table as written.
    struct Row {
        var name: String
        var access: String
        var params: [String: Bool]
    }

    @Test func theMethodTableMatchesTheSpecs() throws {
        let rows = try Self.rows()
        let names = rows.map(\.name)
        #expect(names.count == Set(names).count, "a method has two rows")
        let specs = Set(Methods.all.map { $0.name })
        #expect(specs.subtracting(names).isEmpty, "methods without a row: \(specs.subtracting(names).sorted())")
        #expect(Set(names).subtracting(specs).isEmpty, "rows of no method: \(Set(names).subtracting(specs).sorted())")
        let byName = Dictionary(rows.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        for spec in Methods.all {
            guard let row = byName[spec.name] else { continue }
            #expect(row.access == Self.text(spec.access), "\(spec.name): access")
            #expect(row.params == Self.params(spec), "\(spec.name): params (true: may be left out)")
        }
    }

    /// A row's access as the table writes it.
    static func text(_ access: MethodAccess) -> String {
        switch access {
        case .open: "open"
        case .manage: "host group"
        case .kinds(let verb): "kinds: \(verb.rawValue)"
        }
    }

    /// The spec's params members, each with whether the daemon takes a request without it.
    static func params<Spec: MethodSpec>(_ spec: Spec.Type) -> [String: Bool] {
        guard Spec.Params.self != EmptyParams.self,
            let data = try? WidgetJSON.encoder.encode(Spec.example),
            case .object(let members)? = try? WidgetJSON.decoder.decode(JSONValue.self, from: data)
        else { return [:] }
        var result: [String: Bool] = [:]
        for key in members.keys {
            var without = members
            without[key] = nil
            let json = Data(JSONValue.object(without).compactText.utf8)
            result[key] = (try? Spec.params(fromObject: json)) != nil
        }
        return result
    }

    /// The rows of the table under `| method | access | params | result |`.
    static func rows() throws -> [Row] {
        let text = try String(contentsOf: Repository.url.appendingPathComponent("docs/protocol.md"), encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let header = try #require(lines.firstIndex(of: "| method | access | params | result |"), "the method table's header")
        var rows: [Row] = []
        for line in lines[(header + 2)...] {
            guard line.hasPrefix("|") else { break }
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            try #require(cells.count >= 5, "a row of four cells: \(line)")
            rows.append(Row(name: cells[1].trimmingCharacters(in: ["`"]), access: cells[2], params: try members(cells[3])))
        }
        return rows
    }

    /// `{kinds?: [...], userInitiated?}` as its members, true for those marked `?`; `–` for none.
    static func members(_ cell: String) throws -> [String: Bool] {
        if cell.hasPrefix("–") { return [:] }
        guard let open = cell.firstIndex(of: "{") else {
            Issue.record("params neither `–` nor `{...}`: \(cell)")
            return [:]
        }
        var depth = 0
        var member = ""
        var members: [String] = []
        for character in cell[open...] {
            switch character {
            case "{", "[": depth += 1
            case "}", "]": depth -= 1
            default: break
            }
            if depth == 0 { break }
            if depth == 1, character == "," {
                members.append(member)
                member = ""
            } else if depth == 1, character != "{" {
                member.append(character)
            }
        }
        members.append(member)
        var result: [String: Bool] = [:]
        for member in members {
            let trimmed = member.trimmingCharacters(in: .whitespaces)
            let name = String(trimmed.prefix { $0.isLetter || $0.isNumber })
            try #require(!name.isEmpty, "a member without a name in \(cell)")
            result[name] = trimmed.dropFirst(name.count).hasPrefix("?")
        }
        return result
    }
}
