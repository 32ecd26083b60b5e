import Foundation
@testable import WidgetIntegrationSupport

/// `swift` run on a provider package for `StandaloneSDK`, under a deadline that fails the test
/// naming it.
enum SDKBuild {
    /// `home`: the `HOME` it runs with, so no package cache or configuration of this machine's
    /// user helps. `offline`: in a network namespace of its own (`unshare --net`) where this
    /// machine allows one, so that any fetch fails; the dependency graph is checked either way.
    static func swift(_ arguments: [String], home: String, offline: Bool = false) -> DaemonFixture.Result {
        let swift = ["/usr/bin/env", "swift"] + arguments
        if offline, canUnshareNetwork {
            return ProgramRun.run("/usr/bin/unshare", ["--net"] + swift, environment: ["HOME": home], deadline: 900)
        }
        return ProgramRun.run(swift[0], Array(swift.dropFirst()), environment: ["HOME": home], deadline: 900)
    }

    static let canUnshareNetwork: Bool = {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare") else { return false }
        return ProgramRun.run("/usr/bin/unshare", ["--net", "/bin/true"], deadline: 30).status == 0
    }()
}
