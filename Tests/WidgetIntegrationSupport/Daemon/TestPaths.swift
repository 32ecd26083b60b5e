import Foundation
@testable import WidgetTestSupport

/// Where the built binaries and the repository are. The test bundle sits in the build
/// folder next to `widgetd` and `widgetctl`; `WIDGETD_BIN_DIR` overrides.
enum TestPaths {
    static let binDirectory: String = {
        if let explicit = ProcessInfo.processInfo.environment["WIDGETD_BIN_DIR"] { return explicit }
        var url = URL(fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0])
        while url.path != "/" {
            url.deleteLastPathComponent()
            if FileManager.default.isExecutableFile(atPath: url.appendingPathComponent("widgetd").path) { return url.path }
        }
        fatalError("widgetd binary not found next to the test bundle; set WIDGETD_BIN_DIR")
    }()

    static var widgetd: String { binDirectory + "/widgetd" }
    static var widgetctl: String { binDirectory + "/widgetctl" }
    static var widgetdWeb: String { binDirectory + "/widgetd-web" }

    static var repository: String { Repository.root }
}
