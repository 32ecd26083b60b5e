import Foundation
import Testing
import WidgetCore
import WidgetDescriptorFiles
@testable import WidgetTestSupport

/// A descriptor's templates are compiled, and its HTML template read, when the file is read:
/// a template a host could not render refuses the file with where it went wrong.
@Suite("Descriptor template files")
struct DescriptorTemplateFileTests {
    let folder: String

    init() throws {
        folder = temporaryDirectory("wtf")
        try FileManager.default.createDirectory(atPath: folder + "/templates", withIntermediateDirectories: true)
    }

    func read(_ templates: String, html: String? = nil) throws(DescriptorProblem) -> [WidgetDescriptor] {
        if let html { _ = FileManager.default.createFile(atPath: folder + "/templates/card.mustache", contents: Data(html.utf8)) }
        let path = folder + "/card.json"
        let json = #"{"kind": "com.example.card", "supportedFamilies": ["systemSmall"], "templates": \#(templates)}"#
        _ = FileManager.default.createFile(atPath: path, contents: Data(json.utf8))
        return try DescriptorFile.read(path)
    }

    func reason(_ templates: String, html: String? = nil) -> String? {
        do {
            _ = try read(templates, html: html)
            return nil
        } catch {
            return error.reason
        }
    }

    @Test func goodTemplatesLoad() throws {
        let descriptors = try read(#"{"html": "templates/card.mustache", "text": "{{title}}"}"#, html: "<b>{{title}}</b>")
        #expect(descriptors[0].templates?.html == folder + "/templates/card.mustache")
    }

    @Test func aTextTemplateThatDoesNotCompileIsRefused() {
        #expect(reason(#"{"text": "{{#open}} never closed"}"#)?.hasPrefix("$.templates.text: not a valid Mustache template: line 1") == true)
    }

    @Test func aMissingHTMLTemplateIsRefused() {
        #expect(reason(#"{"html": "templates/none.mustache"}"#) == "$.templates.html: cannot read \(folder)/templates/none.mustache")
    }

    @Test func anHTMLTemplateThatDoesNotCompileIsRefused() {
        let reason = reason(#"{"html": "templates/card.mustache"}"#, html: "<p>\n{{/title}}</p>")
        #expect(reason?.hasPrefix("$.templates.html: \(folder)/templates/card.mustache is not a valid Mustache template: line 2") == true, "\(reason ?? "nil")")
    }
}
