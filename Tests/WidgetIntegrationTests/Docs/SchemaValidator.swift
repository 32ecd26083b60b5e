import Foundation
@testable import WidgetIntegrationSupport

/// Debian's python3-jsonschema, through `scripts/check-schema`, as the reference for the
/// schemas in `docs/schema`: `/usr/bin/python3`, not a `python3` that PATH may find first
/// (a pyenv one without the package).
enum SchemaValidator {
    static func schema(_ name: String) -> String { TestPaths.repository + "/docs/schema/" + name + ".schema.json" }

    /// The problems python3-jsonschema finds in each file (none: valid).
    static func problems(schema name: String, files: [String]) throws -> [String: [String]] {
        let result = ProgramRun.run("/usr/bin/python3", [TestPaths.repository + "/scripts/check-schema", "--json", schema(name)] + files)
        guard result.status == 0 || result.status == 1,
            let report = try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: [String]]
        else {
            throw FixtureError("scripts/check-schema failed (\(result.status)); is python3-jsonschema installed (scripts/setup)? \(result.stderr)")
        }
        return report
    }

    /// Writes each document to its own file in `directory`, named by its index.
    static func write(_ documents: [String], into directory: String) throws -> [String] {
        try documents.enumerated().map { index, text in
            let path = directory + "/doc\(index).json"
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            return path
        }
    }
}
