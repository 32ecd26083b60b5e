// swift-tools-version:6.1
import PackageDescription

/// widgetd's SDK for provider programs, a package of its own with no dependencies so that a
/// provider builds against it offline and resolves nothing else. A provider adds it by path:
///
///     .package(path: "/usr/share/widgetd/widgetd-sdk"),
///     .product(name: "WidgetProviderKit", package: "widgetd-sdk"),
///
/// (docs/providers.md). The directory's name is the package's identity, so it stays
/// `widgetd-sdk` wherever the sources are copied.
let package = Package(
    name: "widgetd-sdk",
    platforms: [.macOS(.v15)],
    products: [
        // WidgetKit's TimelineProvider side, for provider executables.
        .library(name: "WidgetProviderKit", targets: ["WidgetProviderKit"]),
        // The JSON a provider reads and writes, shared with the daemon: Foundation only.
        .library(name: "WidgetWire", targets: ["WidgetWire"]),
    ],
    targets: [
        .target(name: "WidgetWire", swiftSettings: [.enableUpcomingFeature("ExistentialAny")]),
        .target(
            name: "WidgetProviderKit", dependencies: ["WidgetWire"],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]),
    ],
    swiftLanguageModes: [.v6]
)
