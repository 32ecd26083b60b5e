import Foundation
import Testing
@testable import WidgetCore
import WidgetDisplay

/// The descriptor keys hosts render with (`templates`, `accentColor`, `backgroundColor`) and
/// the shared Mustache rendering of an entry's content.
@Suite("Display templates")
struct DisplayTemplateTests {
    static let base = #""kind": "com.example.clock", "supportedFamilies": ["systemSmall"]"#

    func parse(_ json: String) throws(DescriptorProblem) -> WidgetDescriptor {
        try DescriptorParser.parse(Data(json.utf8), path: "/etc/widgetd/widgets/clock.json")[0]
    }

    @Test func templatesAndColoursAreRead() throws {
        let descriptor = try parse(#"""
            {\#(Self.base), "accentColor": "#0a84ff", "backgroundColor": "rgb(20 20 30 / 90%)",
             "templates": {"html": "templates/clock.mustache", "text": "{{time}}", "tooltip": "{{zone}}"}}
            """#)
        #expect(descriptor.accentColor == "#0a84ff")
        #expect(descriptor.backgroundColor == "rgb(20 20 30 / 90%)")
        #expect(descriptor.templates == DisplayTemplates(
            html: "/etc/widgetd/widgets/templates/clock.mustache", text: "{{time}}", tooltip: "{{zone}}"))
    }

    @Test(arguments: [
        (#""accentColor": "red; background: url(x)""#, "$.accentColor: expected a CSS colour"),
        (#""backgroundColor": 3"#, "$.backgroundColor: expected a CSS colour"),
        (#""templates": {"html": "clock.html"}"#, "$.templates.html: expected the path of a .mustache file"),
        (#""templates": {"txt": "{{a}}"}"#, #"$.templates.txt: unknown key; did you mean "text"?"#),
        (#""templates": {"text": ""}"#, "$.templates.text: expected a non-empty string"),
        (#""templates": "{{a}}""#, "$.templates: expected an object"),
    ])
    func badValuesAreRefusedWithTheirPath(field: String, reason: String) {
        #expect(throws: DescriptorProblem.self) { try parse("{\(Self.base), \(field)}") }
        do {
            _ = try parse("{\(Self.base), \(field)}")
        } catch {
            #expect(error.reason.hasPrefix(reason), "\(error.reason)")
        }
    }

    @Test func contentKeysAreTheTemplatesNames() throws {
        let template = try EntryTemplate("{{title}}: {{value}}{{#unit}} {{unit}}{{/unit}} ({{family}})")
        let content = JSONValue.object(["title": .string("Load"), "value": .number(0.5), "unit": .null])
        #expect(template.render(content, extra: ["family": .string("systemSmall"), "title": .string("host")]) == "Load: 0.5 (systemSmall)")
    }

    @Test func htmlEscapingIsTheDefaultAndPlainTextCanBeAsked() throws {
        let content = JSONValue.object(["text": .string("Fish & <chips>")])
        #expect(try EntryTemplate("{{text}}").render(content) == "Fish &amp; &lt;chips&gt;")
        #expect(try EntryTemplate("{{text}}", escaping: .none).render(content) == "Fish & <chips>")
    }

    @Test func listsAndNestedObjectsRender() throws {
        let content = JSONValue.object([
            "tasks": .array([.object(["name": .string("milk")]), .object(["name": .string("eggs")])]),
            "count": .integer(2),
        ])
        #expect(try EntryTemplate("{{count}}:{{#tasks}} {{name}}{{/tasks}}").render(content) == "2: milk eggs")
    }

    @Test func aBrokenTemplateSaysWhere() {
        do {
            _ = try EntryTemplate("ok\n{{#a}} never closed", escaping: .none)
            Issue.record("a section never closed compiled")
        } catch {
            #expect(error.reason.hasPrefix("line 2"), "\(error.reason)")
        }
    }
}
