import Testing
import WidgetCore

/// Who may write what widgetd runs: the pure rule behind the checks of descriptors, provider
/// programs and widgets directories (sshd's `StrictModes`).
@Suite("File mode rule")
struct FileModeRuleTests {
    let root = FileModeRule(daemonUID: 0)

    @Test func rootOwnedAndNotWritableByOthersPasses() {
        #expect(root.problem(FileStatus(uid: 0, permissions: 0o755), path: "/p") == nil)
        #expect(root.problem(FileStatus(uid: 0, permissions: 0o644), path: "/p") == nil)
        #expect(root.problem(FileStatus(uid: 0, permissions: 0o700, isDirectory: true), path: "/d") == nil)
        // Set-id bits and read or execute bits for others are no one's way in.
        #expect(root.problem(FileStatus(uid: 0, permissions: 0o4755), path: "/p") == nil)
    }

    @Test(arguments: [
        (0o777 as UInt32, "its group and others (mode 0777)"),
        (0o775, "its group (mode 0775)"),
        (0o757, "others (mode 0757)"),
        (0o620, "its group (mode 0620)"),
    ])
    func writableByGroupOrOthersIsRefused(permissions: UInt32, who: String) throws {
        let problem = try #require(root.problem(FileStatus(uid: 0, permissions: permissions), path: "/w/p"))
        #expect(problem == "/w/p is writable by \(who): only root may write what widgetd runs (chmod go-w)")
    }

    @Test func anotherUsersFileIsRefused() throws {
        let problem = try #require(root.problem(FileStatus(uid: 1003, permissions: 0o755), path: "/w/p"))
        #expect(problem == "/w/p is owned by uid 1003, not by root: that user could change what widgetd runs (chown it)")
    }

    @Test func theDaemonsUserAndTheKindsOwnerMayOwnIt() throws {
        let rule = FileModeRule(daemonUID: 1000, owner: .user(name: "alice", uid: 1001))
        #expect(rule.problem(FileStatus(uid: 1000, permissions: 0o755), path: "/p") == nil)
        #expect(rule.problem(FileStatus(uid: 1001, permissions: 0o755), path: "/p") == nil)
        #expect(rule.problem(FileStatus(uid: 0, permissions: 0o755), path: "/p") == nil)
        let other = try #require(rule.problem(FileStatus(uid: 1002, permissions: 0o755), path: "/p"))
        #expect(other.contains("not by root, the daemon's user (uid 1000) or the kind's owner (uid 1001)"))
        // The owner's files still may not be writable by others.
        #expect(rule.problem(FileStatus(uid: 1001, permissions: 0o777), path: "/p") != nil)
    }

    @Test func aGroupOwnerDoesNotMakeItsMembersTrusted() {
        let rule = FileModeRule(daemonUID: 0, owner: .group(name: "apps", gid: 1002))
        #expect(rule.ownerUID == nil)
        #expect(rule.problem(FileStatus(uid: 1002, permissions: 0o755), path: "/p") != nil)
        #expect(rule.problem(FileStatus(uid: 0, permissions: 0o775), path: "/p") != nil)
    }

    @Test func aStickyDirectoryOwnedByRootPasses() {
        // /tmp: others may add entries but not replace root's.
        #expect(root.problem(FileStatus(uid: 0, permissions: 0o1777, isDirectory: true), path: "/tmp") == nil)
        // A sticky file is no exception, nor a sticky directory someone else owns.
        #expect(root.problem(FileStatus(uid: 0, permissions: 0o1777), path: "/f") != nil)
        #expect(root.problem(FileStatus(uid: 1003, permissions: 0o1777, isDirectory: true), path: "/d") != nil)
        // Without the sticky bit an open directory lets anyone swap what is in it.
        #expect(root.problem(FileStatus(uid: 0, permissions: 0o777, isDirectory: true), path: "/d") != nil)
    }

    @Test func aLinkCountsByItsOwnerOnly() {
        // Its mode is always 0777 and means nothing; whoever owns it may replace it.
        #expect(root.problem(FileStatus(uid: 0, permissions: 0o777, isSymbolicLink: true), path: "/l") == nil)
        #expect(root.problem(FileStatus(uid: 1003, permissions: 0o777, isSymbolicLink: true), path: "/l") != nil)
    }

    @Test func theDescriptorLimitsParseWithTheirRanges() throws {
        let defaults = try DaemonSettings.parse("").limits
        #expect(defaults.maxDescriptorBytes == 1_048_576)
        #expect(defaults.maxDescriptorFiles == 1_000)
        let limits = try DaemonSettings.parse("[limits]\nmax-descriptor-bytes = 4096\nmax-descriptor-files = 20\n").limits
        #expect(limits.maxDescriptorBytes == 4096)
        #expect(limits.maxDescriptorFiles == 20)
        #expect(throws: SettingsError.self) { try DaemonSettings.parse("[limits]\nmax-descriptor-bytes = 10\n") }
        #expect(throws: SettingsError.self) { try DaemonSettings.parse("[limits]\nmax-descriptor-files = 0\n") }
    }
}

extension FileModeRuleTests {
    @Test func groupWriteByTheOwnersPrivateGroupPasses() {
        let rule = FileModeRule(daemonUID: 1000)
        // A clone made under umask 002: the user's own group may write, and it is only theirs.
        #expect(rule.problem(FileStatus(uid: 1000, permissions: 0o775, isDirectory: true, groupIsOwners: true), path: "/d") == nil)
        #expect(rule.problem(FileStatus(uid: 1000, permissions: 0o775, groupIsOwners: false), path: "/d") != nil)
        #expect(rule.problem(FileStatus(uid: 1000, permissions: 0o777, groupIsOwners: true), path: "/d")?.contains("others (mode 0777)") == true)
    }
}
