import Foundation
import Testing
@testable import WidgetCore

/// Intent schemas in descriptors: every error names the file and the field.
@Suite("Intent schema parsing")
struct IntentSchemaTests {
    static let path = "/etc/widgetd/widgets.d/k.json"

    func parse(_ intent: String) throws(DescriptorProblem) -> IntentSchema? {
        let text = #"{"kind": "k", "supportedFamilies": ["systemSmall", "systemMedium"], "intent": \#(intent)}"#
        return try DescriptorParser.parse(Data(text.utf8), path: Self.path).first?.intent
    }

    func problem(_ intent: String) -> String? {
        do {
            _ = try parse(intent)
            return nil
        } catch {
            #expect(error.path == Self.path)
            return error.reason
        }
    }

    @Test func theRandomNumberSchemaParses() throws {
        let schema = try #require(try parse("""
            {"type": "RandomNumber", "parameters": [
              {"name": "useCustomRange", "title": "Custom Range", "type": "boolean", "default": false},
              {"name": "maxNumber", "title": "Max Number", "type": "integer", "default": 100, "min": 1, "max": 200,
               "showIf": {"parameter": "useCustomRange", "equals": false}},
              {"name": "customRange", "type": "entity", "showIf": {"parameter": "useCustomRange", "equals": true}},
              {"name": "character", "type": "enum", "cases": [{"id": "panda", "display": "Power Panda"}], "default": "panda"},
              {"name": "buttons", "type": "entity", "multiple": true, "count": {"systemMedium": 4}}
            ], "supportedCombinations": [["maxNumber"], ["customRange"]]}
            """))
        #expect(schema.type == "RandomNumber")
        #expect(schema.parameters.map(\.name) == ["useCustomRange", "maxNumber", "customRange", "character", "buttons"])
        #expect(schema.parameter("maxNumber")?.min == 1)
        #expect(schema.parameter("maxNumber")?.showIf == ShowIf(parameter: "useCustomRange", equals: .bool(false)))
        #expect(schema.parameter("character")?.cases == [EnumCase(id: "panda", display: "Power Panda")])
        #expect(schema.parameter("buttons")?.count == [.systemMedium: 4])
        #expect(schema.supportedCombinations == [["maxNumber"], ["customRange"]])
    }

    @Test(arguments: [
        (#"{"parameters": []}"#, "$.intent.type: required non-empty string"),
        (#"{"type": "T", "parameters": {}}"#, "$.intent.parameters: expected an array"),
        (#"{"type": "T", "parameters": [{"type": "string"}]}"#, "$.intent.parameters[0].name: required non-empty string"),
        (#"{"type": "T", "parameters": [{"name": "a", "type": "color"}]}"#, "$.intent.parameters[0].type: required, one of string, integer, decimal, boolean, date, enum, entity"),
        (#"{"type": "T", "parameters": [{"name": "a", "type": "string"}, {"name": "a", "type": "string"}]}"#, "$.intent.parameters[1].name: 'a' is declared twice"),
        (#"{"type": "T", "parameters": [{"name": "a", "type": "enum"}]}"#, #"$.intent.parameters[0].cases: an enum needs a non-empty array of {"id", "display"}"#),
        (#"{"type": "T", "parameters": [{"name": "a", "type": "string", "min": 1}]}"#, "$.intent.parameters[0].min: only integer and decimal parameters have min"),
        (#"{"type": "T", "parameters": [{"name": "a", "type": "integer", "min": 5, "max": 1}]}"#, "$.intent.parameters[0].min: 5.0 is above max 1.0"),
        (#"{"type": "T", "parameters": [{"name": "a", "type": "integer", "default": 500, "max": 200}]}"#, "$.intent.parameters[0].default: 500 is above the maximum 200"),
        (#"{"type": "T", "parameters": [{"name": "a", "type": "entity", "count": {"systemSmall": 2}}]}"#, "$.intent.parameters[0].count: only a multiple parameter has a count"),
        (#"{"type": "T", "parameters": [{"name": "a", "type": "entity", "multiple": true, "count": {"systemHuge": 2}}]}"#, "$.intent.parameters[0].count: unknown family 'systemHuge'"),
        (#"{"type": "T", "parameters": [{"name": "a", "type": "string", "showIf": {"parameter": "b", "equals": true}}]}"#, "$.intent.parameters[0].showIf.parameter: 'b' is not a parameter declared before 'a'"),
        (#"{"type": "T", "parameters": [{"name": "b", "type": "boolean"}, {"name": "a", "type": "string", "showIf": {"parameter": "b", "equals": "yes"}}]}"#, #"$.intent.parameters[1].showIf.equals: expected true or false, got "yes""#),
        (#"{"type": "T", "parameters": [], "supportedCombinations": [["ghost"]]}"#, #"$.intent.supportedCombinations[0]: "ghost" is not a declared parameter"#),
    ])
    func errorsNameTheField(intent: String, expected: String) {
        #expect(problem(intent) == expected)
    }
}
