import Foundation
import Testing
import WidgetCore
import WidgetProtocol
@testable import WidgetIntegrationSupport
@testable import WidgetTestSupport

extension Integration {
    /// `docs/schema` checked by a real validator (python3-jsonschema): every shipped
    /// descriptor and example timeline fits, and the schemas and widgetd's parsers agree on
    /// which documents are valid.
    @Suite struct Schemas {
        static let repository = TestPaths.repository

        static func files(in folder: String, prefix: String = "") -> [String] {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: repository + "/" + folder)) ?? []
            return names.filter { $0.hasPrefix(prefix) && $0.hasSuffix(".json") }.sorted().map { repository + "/" + folder + "/" + $0 }
        }

        @Test func everyShippedDescriptorFitsTheSchemaAndParses() throws {
            let files = Self.files(in: "etc/widgetd/widgets.d") + Self.files(in: "scripts/sandbox/widgets.d")
                + Self.files(in: "Fuzz/corpus", prefix: "descriptor-")
            #expect(files.count >= 16)
            let report = try SchemaValidator.problems(schema: "descriptor", files: files)
            for file in files {
                #expect(report[file] == [], "\(file): \(report[file] ?? ["not checked"])")
                let data = try Data(contentsOf: URL(fileURLWithPath: file))
                #expect(throws: Never.self, "\(file)") { try DescriptorParser.parse(data, path: file) }
            }
        }

        /// The example timelines in the repository and the answers the example providers (the
        /// shell ones and the Swift bundle) give now.
        @Test func everyExampleTimelineFitsTheSchema() throws {
            let directory = temporaryDirectory()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let request = #"{"kind": "%@", "family": "systemMedium", "configuration": {}, "now": "2026-01-05T08:00:00Z"}"#
            var answers: [String] = []
            let providers = Self.repository + "/etc/widgetd/widgets.d/providers/"
            for (program, kind) in [
                (providers + "clock", "com.example.clock"), (providers + "quote", "com.example.quote"),
                (providers + "system-load", "com.example.system-load"),
                (TestPaths.binDirectory + "/widgetd-example-widgets", "com.example.random-number"),
                (TestPaths.binDirectory + "/widgetd-example-widgets", "com.example.emoji-rangers"),
                (TestPaths.binDirectory + "/widgetd-example-widgets", "com.example.shortcuts"),
            ] {
                let result = ProgramRun.run(program, ["timeline"], stdin: String(format: request, kind))
                #expect(result.status == 0, "\(kind): \(result.stderr)")
                answers.append(result.stdout)
                #expect(throws: Never.self, "\(kind)") {
                    let timelines = try ProviderAnswer.timelines(from: Data(result.stdout.utf8), count: 1)
                    _ = try timelines[0].get()
                }
            }
            let produced = try SchemaValidator.write(answers, into: directory)
            let shipped = Self.files(in: "Fuzz/corpus", prefix: "timeline-")
            let report = try SchemaValidator.problems(schema: "answer", files: produced + Self.files(in: "Fuzz/corpus", prefix: "answer-") + shipped)
            for (file, problems) in report { #expect(problems == [], "\(file): \(problems)") }
            let timelines = try SchemaValidator.problems(schema: "timeline", files: shipped)
            for (file, problems) in timelines { #expect(problems == [], "\(file): \(problems)") }
        }

        /// Valid (true) and invalid documents: the validator and `DescriptorParser` must both
        /// take or both refuse each one, and as the list says.
        @Test func theDescriptorSchemaAndTheParserAgree() throws {
            let documents = SchemaSamples.descriptors
            let directory = temporaryDirectory()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let files = try SchemaValidator.write(documents.map(\.text), into: directory)
            let report = try SchemaValidator.problems(schema: "descriptor", files: files)
            let accounts = AccountTable(users: ["alice": 1001], groups: ["apps": 600])
            for (sample, file) in zip(documents, files) {
                let schemaTakes = report[file] == []
                var parserTakes = true
                var reason = ""
                do {
                    _ = try DescriptorParser.parse(Data(sample.text.utf8), path: file, accounts: accounts)
                } catch {
                    parserTakes = false
                    reason = error.reason
                }
                #expect(schemaTakes == sample.valid, "schema on \(sample.text): \(report[file] ?? [])")
                #expect(parserTakes == sample.valid, "parser on \(sample.text): \(reason)")
            }
        }

        @Test func theTimelineSchemaAndTheAnswerReaderAgree() throws {
            let documents = SchemaSamples.timelines
            let directory = temporaryDirectory()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let files = try SchemaValidator.write(documents.map(\.text), into: directory)
            let report = try SchemaValidator.problems(schema: "timeline", files: files)
            for (sample, file) in zip(documents, files) {
                let schemaTakes = report[file] == []
                // Both readers: the scan of the bytes and the decoder behind it.
                let data = Data(sample.text.utf8)
                let read = (try? ProviderAnswer.timelines(from: data, count: 1))?.first.flatMap { try? $0.get() }
                let decoded = (try? ProviderAnswer.decodedTimelines(from: data, count: 1))?.first.flatMap { try? $0.get() }
                #expect(schemaTakes == sample.valid, "schema on \(sample.text): \(report[file] ?? [])")
                #expect((read != nil) == sample.valid, "reader on \(sample.text)")
                #expect((decoded != nil) == sample.valid, "decoder on \(sample.text)")
            }
        }
    }
}
