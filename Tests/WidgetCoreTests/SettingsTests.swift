import Foundation
import Testing
import WidgetCore
@testable import WidgetTestSupport

/// `widgetd.conf` parsing and the duration notation it uses.
@Suite("Daemon settings")
struct SettingsTests {
    @Test func shippedExampleFileGivesTheDefaults() throws {
        let url = Repository.url.appendingPathComponent("etc/widgetd/widgetd.conf")
        let text = try String(contentsOf: url, encoding: .utf8)
        let settings = try DaemonSettings.parse(text)
        #expect(settings == DaemonSettings())
        #expect(settings.dailyReloadLimit == 70)
        #expect(settings.minimumSpacing == 300)
        #expect(settings.coalescingWindow == 60)
        #expect(settings.providerTimeout == 15)
        #expect(settings.maxConcurrentProviders == 4)
        #expect(settings.maxAnswerBytes == 4_194_304)
        #expect(settings.budgetEnabled)
    }

    @Test func shippedExampleFileUncommentedGivesTheDefaultsToo() throws {
        // Every commented-out "#key = value" shows the default: enabling them all changes nothing.
        let url = Repository.url.appendingPathComponent("etc/widgetd/widgetd.conf")
        let text = try String(contentsOf: url, encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.hasPrefix("#") && line.contains(" = ") && !line.hasPrefix("# ") ? String(line.dropFirst()) : String(line)
        }
        let uncommented = lines.joined(separator: "\n")
        #expect(uncommented != text)
        #expect(try DaemonSettings.parse(uncommented) == DaemonSettings())
    }

    @Test func emptyTextGivesTheDefaults() throws {
        #expect(try DaemonSettings.parse("") == DaemonSettings())
    }

    @Test func customValuesParse() throws {
        let text = """
            ; a comment
            [budget]
              daily-limit = 40
            min-spacing=90s

            [scheduler]
            coalescing-window = 0
            [providers]
            timeout = 2m
            max-concurrent = 16
            max-answer-bytes = 1024
            memory-max = 16777216
            cpu-max = 90s
            cpu-quota = 50%
            [budget]
            daily-limit = 41
            hidden-after = 2h
            hidden-daily-limit = 6
            """
        let settings = try DaemonSettings.parse(text)
        var expected = DaemonSettings()
        expected.dailyReloadLimit = 41
        expected.minimumSpacing = 90
        expected.coalescingWindow = 0
        expected.providerTimeout = 120
        expected.maxConcurrentProviders = 16
        expected.maxAnswerBytes = 1024
        expected.providerMemoryMax = 16 * 1024 * 1024
        expected.providerCPUMax = 90
        expected.providerCPUQuota = 50
        expected.hiddenAfter = 7200
        expected.hiddenDailyLimit = 6
        #expect(settings == expected)
        #expect(settings.reloadBudget == ReloadBudget(limit: 41, spacing: 90, enabled: true, hiddenAfter: 7200, hiddenLimit: 6))
    }

    @Test(arguments: [
        ("[budget]\ndaily-limit = 5\n[timers]\n", 3, "unknown section [timers]"),
        ("[budget]\n\n# fine\ndaily-limt = 5\n", 4, "unknown key 'daily-limt' in [budget]"),
        ("[scheduler]\ncoalescing-window = 1x\n", 2, "coalescing-window"),
        ("[budget]\nmin-spacing = -5m\n", 2, "min-spacing"),
        ("[providers]\ntimeout = 0s\n", 2, "timeout"),
        ("# top\ndaily-limit = 5\n", 2, "'daily-limit' is outside any [section]"),
        ("[budget]\ndaily-limit 5\n", 2, "expected 'key = value'"),
        ("[budget\n", 1, "unclosed section header"),
        ("[budget]\ndaily-limit = 0\n", 2, "daily-limit"),
        ("[budget]\ndaily-limit = 70 # seventy\n", 2, "daily-limit"),
        ("[providers]\nmax-answer-bytes = 1023\n", 2, "max-answer-bytes"),
        ("[providers]\nmemory-max = 16777215\n", 2, "memory-max: '16777215' is not an integer in 16777216...1099511627776"),
        ("[providers]\nmemory-max = 512M\n", 2, "memory-max"),
        ("[providers]\ncpu-max = 0s\n", 2, "cpu-max"),
        ("[providers]\ncpu-max = 2d\n", 2, "cpu-max: '2d' is more than 24h"),
        ("[providers]\ncpu-quota = -5%\n", 2, "cpu-quota: '-5%' is not a share of one CPU"),
        ("[providers]\ncpu-quota = half\n", 2, "cpu-quota"),
        ("[scheduler]\nmin-spacing = 5m\n", 2, "unknown key 'min-spacing' in [scheduler]"),
        ("[budget]\nhidden-daily-limit = 0\n", 2, "hidden-daily-limit: '0' is not an integer in 1...100000"),
        ("[budget]\nhidden-after = soon\n", 2, "hidden-after"),
    ])
    func errorsCarryTheLineNumber(text: String, line: Int, mention: String) {
        #expect {
            try DaemonSettings.parse(text)
        } throws: { error in
            guard let error = error as? SettingsError else { return false }
            return error.line == line && error.reason.contains(mention)
                && error.description.hasPrefix("line \(line): ")
        }
    }

    @Test(arguments: [
        ("90s", 90.0), ("10m", 600), ("2h", 7_200), ("1d", 86_400), ("45", 45), ("0", 0), (" 5m ", 300),
        ("0s", 0), ("120s", 120),
    ])
    func durationTextParses(text: String, seconds: TimeInterval) {
        #expect(DurationText.seconds(text) == seconds)
    }

    @Test(arguments: ["", " ", "5x", "-1m", "m", "1.5m", "+5s", "5 m", "s5", "1h30m", "abc"])
    func badDurationTextIsRejected(text: String) {
        #expect(DurationText.seconds(text) == nil)
    }

    @Test func hugeDurationIsRejectedNotInfinite() {
        // Double("999…") overflows to +infinity; an infinite spacing or window must not get in.
        let huge = String(repeating: "9", count: 400)
        #expect(DurationText.seconds(huge) == nil)
        #expect(DurationText.seconds(huge + "s") == nil)
        #expect {
            try DaemonSettings.parse("[budget]\nmin-spacing = \(huge)\n")
        } throws: { error in
            (error as? SettingsError)?.line == 2
        }
    }

    @Test(arguments: [
        (90.0, "90s"), (600, "10m"), (7_200, "2h"), (86_400, "1d"), (45, "45s"), (0, "0s"), (3_660, "61m"),
        (172_800, "2d"), (5_400, "90m"),
    ])
    func durationFormat(seconds: TimeInterval, text: String) {
        #expect(DurationText.format(seconds) == text)
        // What is printed parses back to the same value.
        #expect(DurationText.seconds(text) == seconds)
    }

    @Test func windowsLineEndingsParseWithRightLineNumbers() throws {
        let settings = try DaemonSettings.parse("[budget]\r\ndaily-limit = 12\r\n")
        #expect(settings.dailyReloadLimit == 12)
        do {
            _ = try DaemonSettings.parse("[budget]\r\n\r\nbogus = 1\r\n")
            Issue.record("parsed")
        } catch {
            #expect(error.line == 3)
        }
    }
}
