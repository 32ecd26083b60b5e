import Foundation
import Testing
@testable import WidgetIntegrationSupport
@testable import WidgetTestSupport

extension Integration {
    /// The package's one executable (docs/packaging.md, "One executable"): started through a
    /// link under each installed name, it is that program; under its own name, the daemon.
    @Suite struct OneExecutable {
        @Test func eachLinkRunsTheProgramItIsNamedFor() throws {
            let programs = TestPaths.binDirectory + "/widgetd-programs"
            try #require(
                FileManager.default.isExecutableFile(atPath: programs), "no \(programs): `swift build` builds the product widgetd-programs")
            let folder = temporaryDirectory("one-executable")
            defer { try? FileManager.default.removeItem(atPath: folder) }
            for name in ["widgetd", "widgetctl", "widgetd-web", "widgetd-example-widgets"] {
                try FileManager.default.createSymbolicLink(atPath: folder + "/" + name, withDestinationPath: programs)
            }

            for (name, usage) in [
                ("widgetd", "USAGE: widgetd "), ("widgetctl", "USAGE: widgetctl "), ("widgetd-web", "USAGE: widgetd-web "),
            ] {
                let help = ProgramRun.run(folder + "/" + name, ["--help"])
                #expect(help.status == 0, "\(name) --help: \(help.stderr)")
                #expect(help.stdout.contains(usage), "\(name) --help printed: \(help.stdout.prefix(200))")
            }
            // The provider bundle answers widgetd's exec protocol: without a verb, its usage and 64.
            let bundle = ProgramRun.run(folder + "/widgetd-example-widgets", [])
            #expect(bundle.status == 64)
            #expect(bundle.stderr.contains("widgetd-example-widgets: usage: widgetd-example-widgets timeline|"), "\(bundle.stderr)")
            // A provider launch of the bundle through the link serves its kinds.
            let request = #"{"configuration":{},"family":"systemSmall","kind":"com.example.random-number","now":"2026-01-05T08:00:00Z"}"#
            let placeholder = ProgramRun.run(folder + "/widgetd-example-widgets", ["placeholder"], stdin: request)
            #expect(placeholder.status == 0, "placeholder: \(placeholder.stderr)")
            #expect(placeholder.stdout.contains("\"number\""), "placeholder answered: \(placeholder.stdout.prefix(200))")

            let ownName = ProgramRun.run(programs, ["--help"])
            #expect(ownName.stdout.contains("USAGE: widgetd "), "widgetd-programs --help printed: \(ownName.stdout.prefix(200))")
        }
    }
}
