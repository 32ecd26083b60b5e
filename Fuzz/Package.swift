// swift-tools-version:6.1
import PackageDescription

/// A libFuzzer target over the parsers that read untrusted bytes: the control socket's
/// request decoder (with every method's params, from the specs), widget descriptors,
/// and timelines as pushed or printed by providers. A package of its own because it is built
/// with `-sanitize=fuzzer`, which instruments every module it compiles; `scripts/fuzz`
/// (repository root) builds and runs it.
let package = Package(
    name: "widgetd-fuzz",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "widgetd", path: "../")
    ],
    targets: [
        .executableTarget(
            name: "widgetd-fuzz",
            dependencies: [
                .product(name: "WidgetCore", package: "widgetd"),
                .product(name: "WidgetProtocol", package: "widgetd"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6), .unsafeFlags(["-parse-as-library"])])
    ]
)
