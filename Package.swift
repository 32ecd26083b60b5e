// swift-tools-version:6.1
import PackageDescription

/// Targets by role: a pure core, the wire protocol, the SQLite store, the daemon
/// (engine, socket, providers, systemd glue), the client, the CLI commands, and
/// two executables that are only shims over those libraries.
let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "widgetd",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "widgetd", targets: ["widgetd"]),
        .executable(name: "widgetctl", targets: ["widgetctl"]),
        .library(name: "WidgetdClient", targets: ["WidgetdClient"]),
        .executable(name: "widgetd-example-widgets", targets: ["widgetd-example-widgets"]),
        // The one executable the Debian package installs; the programs above are links to it.
        .executable(name: "widgetd-programs", targets: ["widgetd-programs"]),
        .executable(name: "widgetd-web", targets: ["widgetd-web"]),
        // For Benchmarks/ (which measures the core and seeds large state databases directly) and
        // Fuzz/ (which feeds the parsers hostile bytes).
        .library(name: "WidgetCore", targets: ["WidgetCore"]),
        .library(name: "WidgetStore", targets: ["WidgetStore"]),
        .library(name: "WidgetProtocol", targets: ["WidgetProtocol"]),
        // The picture of a simulation, for widgetctl, the web host and Benchmarks/.
        .library(name: "WidgetPictures", targets: ["WidgetPictures"]),
    ],
    dependencies: [
        // The SDK for providers and the wire forms it shares with the daemon: a package of its
        // own, with no dependencies, so a provider resolves nothing else (docs/providers.md).
        .package(path: "widgetd-sdk"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.80.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-collections.git", from: "1.1.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.6.0"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.0.0"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache.git", from: "2.0.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.0.0"),
    ],
    targets: [
        // Pure: model, timelines, reload scheduling, budget, settings. No I/O; time is passed in.
        .target(
            name: "WidgetCore",
            dependencies: [
                .product(name: "WidgetWire", package: "widgetd-sdk"),
                .product(name: "HeapModule", package: "swift-collections"),
            ],
            swiftSettings: strict),
        // Pure: the SVG picture of a simulation (`simulate`), drawn from the core's report.
        .target(name: "WidgetPictures", dependencies: ["WidgetCore"], swiftSettings: strict),
        // Codable JSON-RPC messages shared by daemon, CLI and client library.
        .target(name: "WidgetProtocol", dependencies: ["WidgetCore"], swiftSettings: strict),
        // Durable state: GRDB over SQLite in WAL mode, with migrations.
        .target(
            name: "WidgetStore",
            dependencies: [
                "WidgetCore", .product(name: "GRDB", package: "GRDB.swift"),
                // SQLite's C interface: the start-up read steps its statements itself.
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ],
            swiftSettings: strict),
        // Descriptor files read from disk and checked against this machine (accounts, provider
        // programs): shared by the daemon and `widgetctl widgets check`, so both judge alike.
        .target(name: "WidgetDescriptorFiles", dependencies: ["WidgetCore", "WidgetDisplay"], swiftSettings: strict),
        .systemLibrary(
            name: "CSystemd",
            pkgConfig: "libsystemd",
            providers: [.apt(["libsystemd-dev"])]),
        // libmosquitto: the MQTT client of remote updates (`[remote]` in widgetd.conf), opened
        // on first use rather than linked, so programs that never talk MQTT do not load it.
        .target(name: "CMosquitto"),
        // Lets go of the code start-up ran, once a long-running program is up: widgetd, widgetd-web.
        .target(name: "ResidentText", swiftSettings: strict),
        // The Swift runtime's global-executor hook, reached by the linker rather than `dlsym`
        // (which finds nothing in a program with the runtime linked in).
        .target(name: "CExecutorHook"),
        // NIO's event loop as Swift concurrency's global executor, for widgetd and widgetd-web.
        .target(
            name: "LoopExecutor",
            dependencies: [
                "CExecutorHook", .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: strict),
        // Transient scopes for provider launches, over sd-bus (C: sd-bus builds messages with
        // variadic calls).
        .target(name: "CLaunchScope", linkerSettings: [.linkedLibrary("systemd")]),
        // A signal handler that writes to a pipe: async-signal-safe, and no DispatchSource.
        .target(name: "CSignalPipe"),
        // Signals taken by a thread of their own, not a DispatchSource: for widgetd and widgetd-web.
        .target(
            name: "ProcessSignals",
            dependencies: ["CSignalPipe", .product(name: "ServiceLifecycle", package: "swift-service-lifecycle")],
            swiftSettings: strict),
        // The daemon: engine actor, socket server, provider runner, systemd glue.
        .target(
            name: "WidgetDaemon",
            dependencies: [
                "WidgetCore", "WidgetProtocol", "WidgetStore", "WidgetDescriptorFiles", "CSystemd", "CMosquitto", "LoopExecutor",
                "ProcessSignals", "CLaunchScope", "ResidentText",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                "WidgetdClient",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strict),
        // What hosts show of an entry: a descriptor's Mustache templates and the generic
        // rendering of kinds without one, shared by the web host and the bar adapters.
        .target(
            name: "WidgetDisplay",
            dependencies: ["WidgetCore", .product(name: "Mustache", package: "swift-mustache")],
            swiftSettings: strict),
        // A blocking JSON-RPC client over the control socket, for widgetctl and apps.
        .target(name: "WidgetdClient", dependencies: ["WidgetProtocol", "WidgetCore"], swiftSettings: strict),
        // widgetctl's commands, one file per noun.
        .target(
            name: "WidgetCtlCommands",
            dependencies: [
                "WidgetdClient", "WidgetProtocol", "WidgetCore", "WidgetDescriptorFiles", "WidgetDisplay", "WidgetPictures",
                // `simulate --state` reads a state directory itself.
                "WidgetStore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strict),
        // The web host: a page of stacks and widgets for a browser, fed by one subscription.
        .target(
            name: "WidgetWeb",
            dependencies: [
                "WidgetdClient", "WidgetProtocol", "WidgetCore", "WidgetDisplay", "WidgetPictures", "LoopExecutor",
                "ProcessSignals", "ResidentText",
                .product(name: "Hummingbird", package: "hummingbird"),
                // The server below the router: a gate in front of HTTP on every connection.
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strict),
        .executableTarget(name: "widgetd", dependencies: ["WidgetDaemon", "LoopExecutor"], swiftSettings: strict),
        .executableTarget(
            name: "widgetd-web", dependencies: ["WidgetWeb", "LoopExecutor", .product(name: "NIOCore", package: "swift-nio")],
            swiftSettings: strict),
        .executableTarget(name: "widgetctl", dependencies: ["WidgetCtlCommands"], swiftSettings: strict),
        // One provider bundle serving the example kinds (etc/widgetd/widgets.d), and its shim.
        .target(
            name: "ExampleWidgetBundle", dependencies: [.product(name: "WidgetProviderKit", package: "widgetd-sdk")],
            swiftSettings: strict),
        .executableTarget(name: "widgetd-example-widgets", dependencies: ["ExampleWidgetBundle"], swiftSettings: strict),
        // Every installed program in one executable, chosen by the name it is started under.
        .executableTarget(
            name: "widgetd-programs",
            dependencies: [
                "WidgetDaemon", "WidgetWeb", "WidgetCtlCommands", "ExampleWidgetBundle", "LoopExecutor",
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            swiftSettings: strict),
        .testTarget(
            name: "WidgetProviderKitTests", dependencies: [.product(name: "WidgetProviderKit", package: "widgetd-sdk")],
            swiftSettings: strict),
        .testTarget(
            name: "WidgetCoreTests",
            dependencies: ["WidgetCore", "WidgetProtocol", "WidgetDisplay", "WidgetPictures", "WidgetTestSupport"],
            swiftSettings: strict),
        .testTarget(
            name: "WidgetStoreTests",
            dependencies: ["WidgetStore", "WidgetCore", "WidgetTestSupport", .product(name: "GRDB", package: "GRDB.swift")],
            swiftSettings: strict),
        .testTarget(
            name: "WidgetDaemonTests",
            dependencies: ["WidgetDaemon", "WidgetCore", "WidgetStore", "WidgetProtocol", "WidgetDescriptorFiles", "WidgetTestSupport"],
            swiftSettings: strict),
        .testTarget(name: "WidgetWebTests", dependencies: ["WidgetWeb", "WidgetCore", "WidgetTestSupport"], swiftSettings: strict),
        // widgetctl's commands without a daemon: the bar adapters' line over time.
        .testTarget(name: "WidgetCtlCommandsTests", dependencies: ["WidgetCtlCommands", "WidgetCore", "WidgetDisplay"], swiftSettings: strict),
        // Folders by theme (Campaigns/, CLI/, Web/, Systemd/, Remote/, ...), each with the
        // support only its tests use; what several share is in WidgetIntegrationSupport.
        .testTarget(
            name: "WidgetIntegrationTests",
            dependencies: ["WidgetCore", "WidgetProtocol", "WidgetStore", "WidgetdClient", "CSystemd", "WidgetTestSupport", "WidgetIntegrationSupport"],
            swiftSettings: strict),
        // Test support, shared by the test targets and used by nothing else. They are test
        // targets, not plain ones, because `swift build` builds every plain target (the release
        // build of the Debian package too, where `import Testing` does not resolve); tests reach
        // their helpers with `@testable import`. Unit tests: a fixed epoch, a seeded generator,
        // temporary folders, the engine harness with its in-memory store and scripted runner.
        .testTarget(
            name: "WidgetTestSupport",
            dependencies: [
                "WidgetCore", "WidgetProtocol", "WidgetStore", "WidgetDaemon", "WidgetDescriptorFiles",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: strict),
        // Integration tests: the daemon, process, socket, browser, bar and bus fixtures.
        .testTarget(name: "WidgetIntegrationSupport", dependencies: ["WidgetTestSupport", "CSystemd"], swiftSettings: strict),
    ],
    swiftLanguageModes: [.v6]
)
