// swift-tools-version:6.1
import PackageDescription

/// widgetd's benchmarks, a package of their own so that the daemon's build and tests do not
/// pull in the benchmark framework. `scripts/bench` (repository root) runs all of them and
/// writes `Benchmarks/RESULTS.md`.
let package = Package(
    name: "widgetd-benchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "widgetd", path: "../"),
        .package(url: "https://github.com/ordo-one/benchmark.git", from: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/apple/swift-collections.git", from: "1.1.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.5.0"),
    ],
    targets: [
        // What every measuring tool shares: figures as JSON lines, child processes, RSS.
        .target(
            name: "BenchSupport",
            dependencies: [
                .product(name: "WidgetdClient", package: "widgetd"),
                .product(name: "WidgetCore", package: "widgetd"),
                .product(name: "WidgetPictures", package: "widgetd"),
                .product(name: "HeapModule", package: "swift-collections"),
            ]),
        // In-process figures with ordo-one/benchmark: the scheduler core against a bare heap, rotation.
        .executableTarget(
            name: "CoreBenchmarks",
            dependencies: [
                "BenchSupport",
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "WidgetCore", package: "widgetd"),
                .product(name: "HeapModule", package: "swift-collections"),
            ],
            path: "Benchmarks/CoreBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]),
        // End-to-end over the real socket: requests against Redis (one JSON-RPC/RESP load
        // generator for both), provider launches, wake-ups against deadlines; and the report
        // (RESULTS.md).
        .executableTarget(
            name: "widgetd-load",
            dependencies: [
                "BenchSupport",
                .product(name: "WidgetCore", package: "widgetd"),
                .product(name: "WidgetdClient", package: "widgetd"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Sources/WidgetdLoad"),
        // Large state: seeding, restart time, memory per instance, a simulated day.
        .executableTarget(
            name: "widgetd-scale",
            dependencies: [
                "BenchSupport",
                .product(name: "WidgetCore", package: "widgetd"),
                .product(name: "WidgetStore", package: "widgetd"),
                .product(name: "WidgetdClient", package: "widgetd"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Sources/WidgetdScale"),
    ],
    swiftLanguageModes: [.v6]
)
