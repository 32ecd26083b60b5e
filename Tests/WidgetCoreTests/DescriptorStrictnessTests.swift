import Foundation
import Testing
@testable import WidgetCore

/// What makes a descriptor impossible to get wrong silently: unknown keys refused with the
/// nearest known one, broken JSON placed by line and column, a provider that cannot run
/// kept with its problem.
@Suite("Descriptor strictness")
struct DescriptorStrictnessTests {
    static let path = "widgets/clock.json"

    func problem(_ json: String, programs: any ProgramDirectory = UncheckedPrograms()) -> String? {
        do {
            _ = try DescriptorParser.parse(Data(json.utf8), path: Self.path, programs: programs)
            return nil
        } catch {
            #expect(error.path == Self.path)
            return error.description
        }
    }

    static let base = #""kind": "com.example.clock", "supportedFamilies": ["systemSmall"]"#

    @Test(arguments: [
        (#"{\#(base), "provider": {"exec": ["x"], "timout": 5}}"#, #"$.provider.timout: unknown key; did you mean "timeout"?"#),
        (#"{\#(base), "displayname": "Clock"}"#, #"$.displayname: unknown key; did you mean "displayName"?"#),
        (#"{\#(base), "descripton": "x"}"#, #"$.descripton: unknown key; did you mean "description"?"#),
        (#"{\#(base), "provider": {"exce": ["x"]}}"#, #"$.provider.exce: unknown key; did you mean "exec"?"#),
        (#"{\#(base), "colour": "red"}"#, "$.colour: unknown key (known: kind, displayName, description, supportedFamilies, provider, intent, owner, accentColor, backgroundColor, templates, actions, clues)"),
        (#"{\#(base), "odd key": 1}"#, #"$["odd key"]: unknown key (known: kind, displayName, description, supportedFamilies, provider, intent, owner, accentColor, backgroundColor, templates, actions, clues)"#),
        (#"[{\#(base)}, {\#(base), "provider": {"exec": ["x"], "bacth": true}}]"#, #"$[1].provider.bacth: unknown key; did you mean "batch"?"#),
        (#"{\#(base), "intent": {"type": "T", "parameter": []}}"#, #"$.intent.parameter: unknown key; did you mean "parameters"?"#),
        (#"{\#(base), "intent": {"type": "T", "parameters": [{"name": "a", "type": "integer", "maximum": 3}]}}"#,
         "$.intent.parameters[0].maximum: unknown key (known: name, title, type, cases, default, min, max, multiple, count, showIf)"),
        (#"{\#(base), "intent": {"type": "T", "parameters": [{"name": "a", "type": "string", "tilte": "A"}]}}"#,
         #"$.intent.parameters[0].tilte: unknown key; did you mean "title"?"#),
        (#"{\#(base), "intent": {"type": "T", "parameters": [{"name": "a", "type": "enum", "cases": [{"id": "x", "dispaly": "X"}]}]}}"#,
         #"$.intent.parameters[0].cases[0].dispaly: unknown key; did you mean "display"?"#),
        (#"{\#(base), "intent": {"type": "T", "parameters": [{"name": "a", "type": "enum", "cases": [{"id": "x", "display": 5}]}]}}"#,
         "$.intent.parameters[0].cases[0].display: expected a string"),
        (#"{\#(base), "intent": {"type": "T", "parameters": [{"name": "b", "type": "boolean"}, {"name": "a", "type": "string", "showIf": {"parameter": "b", "equal": true}}]}}"#,
         #"$.intent.parameters[1].showIf.equal: unknown key; did you mean "equals"?"#),
    ])
    func unknownKeysNameTheirPathAndTheNearestKey(json: String, reason: String) {
        #expect(problem(json) == "\(Self.path): \(reason)")
    }

    @Test func anUnknownKeyIsReportedBeforeAMissingOneItMaySpell() {
        // "knd" is a misspelled "kind": saying so helps more than "kind: required".
        #expect(problem(#"{"knd": "k", "supportedFamilies": ["systemSmall"]}"#) == #"widgets/clock.json: $.knd: unknown key; did you mean "kind"?"#)
    }

    @Test(arguments: [
        ("timout", "timeout", 1), ("exce", "exec", 1), ("kind", "kind", 0), ("", "abc", 3), ("kitten", "sitting", 3),
    ])
    func editDistance(a: String, b: String, distance: Int) {
        #expect(KnownKeys.editDistance(a, b) == distance)
    }

    @Test func farKeysGetNoSuggestion() {
        let keys = KnownKeys("exec", "timeout", "batch")
        #expect(keys.nearest(to: "timeouts") == "timeout")
        #expect(keys.nearest(to: "Batch") == "batch")
        #expect(keys.nearest(to: "environment") == nil)
        #expect(keys.nearest(to: "x") == nil)
    }

    @Test(arguments: [
        ("{\"kind\": \"k\",", "line 1, column 14: expected a key in double quotes, found the end of the text"),
        ("", "line 1, column 1: expected a value, found the end of the text"),
        ("{\n  \"kind\": \"k\",\n  \"supportedFamilies\": [\"systemSmall\"],\n}", "line 3, column 39: a comma before '}' (no trailing commas in JSON)"),
        ("{\n  \"kind\": \"k\"\n  \"supportedFamilies\": []\n}", "line 3, column 3: expected ',' or '}' after a member, found '\"'"),
        ("{\"kind\": \"k\", \"kind\": \"j\"}", "line 1, column 15: key \"kind\" appears twice in this object"),
        ("{\"kind\": tru}", "line 1, column 10: expected a value (true, false, null, a number, a string, an object or an array)"),
        ("{\"kind\": 'k'}", "line 1, column 10: expected a value, found '''"),
        ("[1, 2,]", "line 1, column 6: a comma before ']' (no trailing commas in JSON)"),
        ("{\"a\": 01}", "line 1, column 8: a number with a leading zero"),
        ("{\"a\": \"x\ny\"}", "line 1, column 9: a line break inside a string (missing closing quote?)"),
        ("{\"a\": \"\\q\"}", "line 1, column 9: unknown escape \\q"),
        ("{\"ä\": 1,, }", "line 1, column 9: expected a key in double quotes, found ','"),
        ("{} {}", "line 1, column 4: unexpected text after the JSON value"),
        ("{\"a\": \"open", "line 1, column 7: a string without its closing quote"),
    ])
    func brokenJSONIsPlacedByLineAndColumn(json: String, place: String) {
        #expect(problem(json) == "\(Self.path): not valid JSON: \(place)")
    }

    @Test func syntaxTheDecoderTakesIsStillRefused() {
        // Foundation's decoder takes a trailing comma; other JSON tools do not.
        #expect(problem(#"{"kind": "k", "supportedFamilies": ["systemSmall",]}"#)?.contains("no trailing commas") == true)
    }

    @Test func deepNestingIsRefusedNotFollowed() {
        let deep = String(repeating: "[", count: 100_000)
        #expect(problem(deep)?.contains("nested more than 512 deep") == true)
    }

    @Test func validJSONPassesTheSyntaxCheck() {
        for text in [#"{"a": [1, -2.5e+3, 0, true, false, null, "\u00e9\n", {}], "b": {"c": []}}"#, " 42 ", "\"x\""] {
            #expect(JSONSyntax.check(Array(text.utf8)) == nil, "\(text)")
        }
    }

    struct MissingPrograms: ProgramDirectory {
        func problem(running program: String) -> String? {
            program.hasSuffix("missing") ? "\(program) does not exist" : nil
        }
    }

    @Test func aProviderThatCannotRunLeavesTheKindLoadedWithItsProblem() throws {
        let json = #"[{"kind": "a.ok", "supportedFamilies": ["systemSmall"], "provider": {"exec": ["./fine"]}},"#
            + #" {"kind": "a.gone", "supportedFamilies": ["systemSmall"], "provider": {"exec": ["./missing", "--x"]}},"#
            + #" {"kind": "a.push", "supportedFamilies": ["systemSmall"]}]"#
        let descriptors = try DescriptorParser.parse(Data(json.utf8), path: "/srv/w/kinds.json", programs: MissingPrograms())
        #expect(descriptors.map(\.kind) == ["a.ok", "a.gone", "a.push"])
        #expect(descriptors[0].problem == nil)
        #expect(descriptors[1].problem == "$[1].provider.exec[0]: /srv/w/missing does not exist")
        #expect(descriptors[2].problem == nil)
    }
}
