import Foundation
import Testing
import WidgetCore
@testable import WidgetTestSupport

/// `[limits]` of `widgetd.conf`, and the timeline check that push and provider answers share.
@Suite("Limit settings")
struct LimitSettingsTests {
    @Test func defaultsAreTheDocumentedOnes() throws {
        let limits = try DaemonSettings.parse("").limits
        #expect(limits == LimitSettings())
        #expect(limits.maxConnections == 256)
        #expect(limits.maxInstances == 100_000)
        #expect(limits.maxStacks == 10_000)
        #expect(limits.maxStackSize == 100)
        #expect(limits.maxEntries == 10_000)
        #expect(limits.maxEntryBytes == 65_536)
        #expect(limits.maxDonations == 10_000)
        #expect(limits.maxLogRows == 10_000)
        #expect(limits.maxConnectionsPerUID == 64)
        #expect(limits.reservedConnections == 32)
        #expect(limits.maxUnsentBytes == 67_108_864)
        #expect(limits.lineTimeout == 30)
        #expect(limits.maxDBusCallsPerUID == 64)
    }

    @Test func everyKeyParses() throws {
        let settings = try DaemonSettings.parse("""
            [limits]
            max-connections = 3
            max-instances = 4
            max-stacks = 5
            max-stack-size = 6
            max-entries = 7
            max-entry-bytes = 64
            max-donations = 0
            max-log-rows = 10
            max-connections-per-uid = 2
            reserved-connections = 1
            max-unsent-bytes = 65536
            line-timeout = 2m
            max-dbus-calls-per-uid = 9
            """)
        var expected = LimitSettings()
        expected.maxConnections = 3
        expected.maxInstances = 4
        expected.maxStacks = 5
        expected.maxStackSize = 6
        expected.maxEntries = 7
        expected.maxEntryBytes = 64
        expected.maxDonations = 0
        expected.maxLogRows = 10
        expected.maxConnectionsPerUID = 2
        expected.reservedConnections = 1
        expected.maxUnsentBytes = 65_536
        expected.lineTimeout = 120
        expected.maxDBusCallsPerUID = 9
        #expect(settings.limits == expected)
        // Nothing outside [limits] moved.
        var others = settings
        others.limits = LimitSettings()
        #expect(others == DaemonSettings())
    }

    @Test func theOldLogRetentionKeyStillSetsTheLogLimit() throws {
        #expect(try DaemonSettings.parse("[rotation]\nlog-retention = 500\n").limits.maxLogRows == 500)
        // Both given: the one further down wins.
        #expect(try DaemonSettings.parse("[rotation]\nlog-retention = 500\n[limits]\nmax-log-rows = 600\n").decisionRetention == 600)
        #expect(try DaemonSettings.parse("[limits]\nmax-log-rows = 600\n[rotation]\nlog-retention = 500\n").decisionRetention == 500)
    }

    @Test(arguments: [
        ("[limits]\nmax-instances = 0\n", 2, "max-instances: '0' is not an integer in 1...100000000"),
        ("[limits]\n\nmax-connections = many\n", 3, "max-connections: 'many' is not an integer"),
        ("[limits]\nmax-stacks = -1\n", 2, "max-stacks"),
        ("[limits]\nmax-stack-size = 1.5\n", 2, "max-stack-size"),
        ("[limits]\nmax-entries = 10000001\n", 2, "max-entries: '10000001' is not an integer in 1...10000000"),
        ("[limits]\nmax-entry-bytes = 15\n", 2, "max-entry-bytes: '15' is not an integer in 16..."),
        ("[limits]\nmax-donations = 1e3\n", 2, "max-donations"),
        ("[limits]\nmax-log-rows = 9\n", 2, "max-log-rows: '9' is not an integer in 10...10000000"),
        ("[limits]\nmax-instances = 100 # a hundred\n", 2, "max-instances"),
        ("[limits]\nmax-connections-per-uid = 0\n", 2, "max-connections-per-uid: '0' is not an integer in 1...65536"),
        ("[limits]\nreserved-connections = -1\n", 2, "reserved-connections: '-1' is not an integer in 0...65536"),
        ("[limits]\nmax-unsent-bytes = 4096\n", 2, "max-unsent-bytes: '4096' is not an integer in 65536...4294967296"),
        ("[limits]\nline-timeout = 0s\n", 2, "line-timeout: '0s' is not a duration like 30s, 5m, 1h (1s...1d)"),
        ("[limits]\nline-timeout = 2d\n", 2, "line-timeout: '2d'"),
        ("[budget]\ndaily-limit = 5\n[limits]\nmax-instanses = 5\n", 4, "unknown key 'max-instanses' in [limits]"),
        ("[rotation]\nmax-instances = 5\n", 2, "unknown key 'max-instances' in [rotation]"),
        ("[limit]\n", 1, "unknown section [limit]"),
    ])
    func badValuesCarryTheLineNumber(text: String, line: Int, mention: String) {
        #expect {
            try DaemonSettings.parse(text)
        } throws: { error in
            guard let error = error as? SettingsError else { return false }
            return error.line == line && error.reason.contains(mention) && error.description.hasPrefix("line \(line): ")
        }
    }

    // MARK: Timelines

    func timeline(entries: Int, contentBytes: Int = 10) -> WidgetTimeline {
        // {"t":"xxx"}: 8 bytes around the letters.
        let text = String(repeating: "x", count: max(0, contentBytes - 8))
        return WidgetTimeline(
            entries: (0..<entries).map { WidgetEntry(date: t0.addingTimeInterval(Double($0) * 60), content: .object(["t": .string(text)])) },
            policy: .atEnd)
    }

    @Test func aTimelineWithinTheLimitsPasses() {
        var limits = LimitSettings()
        limits.maxEntries = 3
        limits.maxEntryBytes = 100
        #expect(limits.check(timeline(entries: 3, contentBytes: 100)) == nil)
        #expect(limits.check(timeline(entries: 0)) == nil)
    }

    @Test func tooManyEntriesNamesTheCountAndTheSetting() throws {
        var limits = LimitSettings()
        limits.maxEntries = 3
        let exceeded = try #require(limits.check(timeline(entries: 4)))
        #expect(exceeded.setting == "max-entries")
        #expect(exceeded.max == 3)
        #expect(exceeded.actual == 4)
        #expect(exceeded.description == "limit exceeded: a timeline of 4 entries, over 3 (max-entries in [limits] of widgetd.conf)")
    }

    @Test func anEntryOverTheByteLimitIsNamed() throws {
        var limits = LimitSettings()
        limits.maxEntryBytes = 100
        var entries = Array(timeline(entries: 3, contentBytes: 50).entries)
        entries[1].content = .object(["t": .string(String(repeating: "é", count: 50))])  // 2 bytes each
        let exceeded = try #require(limits.check(WidgetTimeline(entries: entries, policy: .atEnd)))
        #expect(exceeded.setting == "max-entry-bytes")
        #expect(exceeded.entry == 1)
        #expect(exceeded.actual == 108)
        #expect(exceeded.description == "limit exceeded: entry 1 has 108 bytes of content, over 100 (max-entry-bytes in [limits] of widgetd.conf)")
    }

    @Test func countMessagesFollowOneForm() {
        var limits = LimitSettings()
        limits.maxInstances = 100_000
        #expect(limits.instancesExceeded().description == "limit exceeded: 100000 instances (max-instances in [limits] of widgetd.conf)")
        #expect(limits.stackSizeExceeded("home").description.hasPrefix("limit exceeded: 100 instances in stack 'home' (max-stack-size"))
        #expect(LimitExceeded.connections(max: 4).description == "limit exceeded: 4 open connections (max-connections in [limits] of widgetd.conf)")
    }
}
