import Foundation
import Glibc
import Testing
import WidgetCore
import WidgetDescriptorFiles
@testable import WidgetTestSupport

/// Descriptor files and provider programs on a real file system: modes and owners along the
/// whole path (links resolved), and a descriptor's size known before it is read.
@Suite("Descriptor file modes")
struct DescriptorFileModeTests {
    let directory: String

    init() throws {
        directory = temporaryDirectory("wfm")
        chmod(directory, 0o755)
    }

    private func write(_ name: String, _ text: String, mode: mode_t = 0o644) -> String {
        let path = directory + "/" + name
        _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
        chmod(path, mode)
        return path
    }

    private func problem(_ path: String, maxBytes: Int = 1 << 20) -> String? {
        do {
            _ = try DescriptorFile.read(path, accounts: AccountTable(), programs: SystemPrograms(), maxBytes: maxBytes)
            return nil
        } catch {
            return error.reason
        }
    }

    static let descriptor = #"{"kind":"k","supportedFamilies":["systemSmall"]}"#

    @Test func aSoundFileLoads() {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(problem(write("k.json", Self.descriptor)) == nil)
    }

    @Test func aWritableDescriptorOrDirectoryIsRefused() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = write("k.json", Self.descriptor, mode: 0o666)
        // Root's own group (gid 0, no other member) counts as root; others do not.
        #expect(problem(path)?.contains("\(path) is writable by others (mode 0666)") == true)
        chmod(path, 0o644)
        chmod(directory, 0o777)
        #expect(problem(path)?.hasPrefix("\(directory) is writable by others") == true)
        // Another group's write (chown needs root).
        if getuid() == 0 {
            chmod(directory, 0o775)
            chown(directory, 0, 4242)
            #expect(problem(path)?.hasPrefix("\(directory) is writable by its group") == true)
        }
    }

    @Test func aLinkIsJudgedByItsTarget() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let target = write("target.json", Self.descriptor, mode: 0o666)
        let link = directory + "/link.json"
        #expect(symlink(target, link) == 0)
        #expect(problem(link)?.contains("\(link) is writable by others") == true)
    }

    @Test func aFileOverTheLimitIsNotRead() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = write("big.json", Self.descriptor + String(repeating: " ", count: 2000))
        #expect(problem(path, maxBytes: 1024) == "\(Self.descriptor.utf8.count + 2000) bytes, over 1024 (max-descriptor-bytes in [limits] of widgetd.conf); not read")
        #expect(problem(path, maxBytes: 4096) == nil)
    }

    @Test func onlyARegularFileIsOpened() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // A FIFO would block a plain read forever.
        let fifo = directory + "/fifo.json"
        #expect(mkfifo(fifo, 0o644) == 0)
        #expect(problem(fifo) == "not a regular file")
        #expect(problem(directory) == "is a directory")
        #expect(problem(directory + "/gone.json") == "no such file")
    }

    @Test(.needsRoot)
    func aProgramOwnedByAnotherUserIsAProblemUnlessItsOwnerOwnsTheKind() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let program = write("provider", "#!/bin/sh\n", mode: 0o755)
        chown(program, 4242, 4242)
        let programs = SystemPrograms(searchPath: "/nonexistent", daemonUID: 0)
        #expect(programs.problem(running: program)?.contains("owned by uid 4242") == true)
        #expect(programs.problem(running: program, owner: .user(name: "someone", uid: 4242)) == nil)
        #expect(programs.problem(running: program, owner: .group(name: "team", gid: 4242)) != nil)
        // In a directory another user could write, even root's own program is refused.
        chown(program, 0, 0)
        #expect(programs.problem(running: program) == nil)
        chmod(directory, 0o775)
        chown(directory, 0, 4242)
        #expect(programs.problem(running: program)?.hasPrefix("\(directory) is writable by its group") == true)
    }
}

extension DescriptorFileModeTests {
    @Test func aTemplateFileOthersCanWriteIsRefused() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let template = write("card.mustache", "<b>{{text}}</b>", mode: 0o666)
        let path = write("k.json", #"{"kind":"k","supportedFamilies":["systemSmall"],"templates":{"html":"card.mustache"}}"#)
        #expect(problem(path)?.hasPrefix("$.templates.html: \(template) is writable by others") == true)
        chmod(template, 0o644)
        #expect(problem(path) == nil)
    }
}
