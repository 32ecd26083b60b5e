import Foundation
import Testing
@testable import WidgetIntegrationSupport
@testable import WidgetTestSupport
import WidgetCore
import WidgetProtocol

extension Integration {
    /// The SDK stands alone: a provider package written as docs/widgets.md says, depending on a
    /// copy of `widgetd-sdk/` by path, builds in a fresh directory with an empty package cache
    /// and no network, resolves nothing but the SDK, and answers a `timeline` request.
    @Suite struct StandaloneSDK {
        /// The lines docs/widgets.md gives for a clone of the repository beside the provider.
        static let packageLine = #".package(path: "../widgetd/widgetd-sdk")"#
        static let productLine = #".product(name: "WidgetProviderKit", package: "widgetd-sdk")"#

        static let manifest = """
            // swift-tools-version:6.1
            import PackageDescription

            let package = Package(
                name: "hello-provider",
                dependencies: [\(packageLine)],
                targets: [
                    .executableTarget(name: "hello-provider", dependencies: [\(productLine)]),
                ]
            )

            """

        static let provider = """
            import Foundation
            import WidgetProviderKit

            struct HelloEntry: TimelineEntry {
                let date: Date
                let greeting: String
            }

            struct HelloProvider: TimelineProvider {
                func placeholder(in context: Context) -> HelloEntry { HelloEntry(date: context.date, greeting: "…") }

                func getSnapshot(in context: Context, completion: @escaping (HelloEntry) -> Void) {
                    completion(placeholder(in: context))
                }

                func getTimeline(in context: Context, completion: @escaping (Timeline<HelloEntry>) -> Void) {
                    let entries = (0..<3).map { hour in
                        HelloEntry(date: context.date.addingTimeInterval(Double(hour) * 3600), greeting: "hello \\(hour)")
                    }
                    completion(Timeline(entries: entries, policy: .after(context.date.addingTimeInterval(7200))))
                }
            }

            @main
            struct HelloWidgets: WidgetProviderBundle {
                var body: [any WidgetConfiguration] {
                    StaticConfiguration(kind: "com.example.hello", provider: HelloProvider())
                }
            }

            """

        @Test func aProviderBuildsAgainstACopyOfTheSDKAlone() throws {
            let docs = try String(contentsOfFile: TestPaths.repository + "/docs/widgets.md", encoding: .utf8)
            #expect(docs.contains(Self.packageLine), "docs/widgets.md gives the clone's .package line")
            #expect(docs.contains(Self.productLine), "docs/widgets.md gives the .product line")
            // Where scripts/package installs the sources (packaging/verify checks they are there).
            #expect(docs.contains(#".package(path: "/usr/share/widgetd/widgetd-sdk")"#), "docs/widgets.md gives the installed .package line")

            let root = temporaryDirectory("wsdk")
            defer { try? FileManager.default.removeItem(atPath: root) }
            let files = FileManager.default
            // Only what the package is made of: a build folder left in the repository's copy
            // would otherwise come along.
            try files.createDirectory(atPath: root + "/widgetd/widgetd-sdk", withIntermediateDirectories: true)
            for item in ["Package.swift", "Sources"] {
                try files.copyItem(atPath: TestPaths.repository + "/widgetd-sdk/" + item, toPath: root + "/widgetd/widgetd-sdk/" + item)
            }
            try files.createDirectory(atPath: root + "/hello/Sources/hello-provider", withIntermediateDirectories: true)
            try Self.manifest.write(toFile: root + "/hello/Package.swift", atomically: true, encoding: .utf8)
            try Self.provider.write(toFile: root + "/hello/Sources/hello-provider/HelloWidgets.swift", atomically: true, encoding: .utf8)
            try files.createDirectory(atPath: root + "/home", withIntermediateDirectories: true)

            // A fresh home, cache, configuration and build folder: nothing resolved before helps.
            let fresh = [
                "--package-path", root + "/hello", "--scratch-path", root + "/scratch", "--cache-path", root + "/cache",
                "--config-path", root + "/config", "--security-path", root + "/security",
            ]
            let dependencies = SDKBuild.swift(["package"] + fresh + ["show-dependencies", "--format", "json"], home: root + "/home")
            try #require(dependencies.status == 0, "swift package show-dependencies: \(dependencies.stderr)")
            let graph = try #require(
                try JSONSerialization.jsonObject(with: Data(dependencies.stdout.utf8)) as? [String: Any],
                "show-dependencies printed no JSON object: \(dependencies.stdout)")
            let direct = graph["dependencies"] as? [[String: Any]] ?? []
            #expect(direct.map { $0["identity"] as? String } == ["widgetd-sdk"], "the provider resolves the SDK only: \(direct)")
            #expect(direct.first?["dependencies"] as? [Any] != nil && (direct.first?["dependencies"] as? [Any])?.isEmpty == true,
                    "the SDK depends on nothing: \(direct)")

            let build = SDKBuild.swift(["build"] + fresh, home: root + "/home", offline: true)
            try #require(build.status == 0, "swift build of the provider failed: \(build.stdout)\n\(build.stderr)")
            // SwiftPM makes these folders whatever it resolves; they stay empty.
            for folder in ["checkouts", "repositories"] {
                let held = (try? files.contentsOfDirectory(atPath: root + "/scratch/" + folder)) ?? []
                #expect(held.isEmpty, "the build fetched packages into \(folder): \(held)")
            }

            let request = #"{"configuration":{},"family":"systemSmall","kind":"com.example.hello","now":"2026-01-05T08:00:00Z","verb":"timeline"}"#
            let answer = ProgramRun.run(root + "/scratch/debug/hello-provider", ["timeline"], stdin: request, deadline: 60)
            try #require(answer.status == 0, "hello-provider timeline: exit \(answer.status): \(answer.stderr)")
            // Read as the daemon reads a provider's answer.
            let timelines = try ProviderAnswer.timelines(from: Data(answer.stdout.utf8), count: 1)
            let timeline = try #require(try timelines.first?.get(), "no timeline in \(answer.stdout)")
            #expect(timeline.entries.map { ISO8601.string(from: $0.date) } == ["2026-01-05T08:00:00Z", "2026-01-05T09:00:00Z", "2026-01-05T10:00:00Z"])
            #expect(timeline.entries.first?.content == .object(["greeting": .string("hello 0")]))
            #expect(timeline.policy == .after(Date(timeIntervalSince1970: 1_767_607_200)))
        }
    }
}
