import Foundation
import Testing
import WidgetDescriptorFiles
@testable import WidgetTestSupport

/// Provider programs looked for as a launch finds them, so a missing one is reported when
/// descriptors load.
@Suite("System programs")
struct SystemProgramsTests {
    let directory: String

    init() throws {
        directory = temporaryDirectory("wsp")
        try FileManager.default.createDirectory(atPath: directory + "/dir", withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: directory + "/run", contents: Data("#!/bin/sh\n".utf8), attributes: [.posixPermissions: 0o755])
        _ = FileManager.default.createFile(atPath: directory + "/plain", contents: Data(), attributes: [.posixPermissions: 0o644])
    }

    @Test func pathsAreCheckedAsWritten() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let programs = SystemPrograms(searchPath: "/nonexistent")
        #expect(programs.problem(running: directory + "/run") == nil)
        #expect(programs.problem(running: directory + "/gone") == "\(directory)/gone does not exist")
        #expect(programs.problem(running: directory + "/dir") == "\(directory)/dir is a directory")
        // Not even root may run a file without an execute bit.
        #expect(programs.problem(running: directory + "/plain") == "\(directory)/plain is not executable (chmod +x?)")
    }

    @Test func bareNamesAreLookedUpOnThePath() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let programs = SystemPrograms(searchPath: "/nonexistent:" + directory)
        #expect(programs.problem(running: "run") == nil)
        #expect(programs.problem(running: "dir") != nil)
        #expect(programs.problem(running: "gone") == "'gone' is not an executable file in any directory of PATH (/nonexistent:\(directory))")
    }
}
