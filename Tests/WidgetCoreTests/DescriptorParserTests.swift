import Foundation
import Testing
@testable import WidgetCore
@testable import WidgetTestSupport

/// Descriptor JSON (docs/widgets.md): parsing, exec resolution, and errors that name the field.
@Suite("Descriptor parser")
struct DescriptorParserTests {
    static let path = "/opt/widgets/widgets.d/weather.json"

    func parse(_ json: String, path: String = Self.path) throws(DescriptorProblem) -> [WidgetDescriptor] {
        try DescriptorParser.parse(Data(json.utf8), path: path)
    }

    /// The reason of the problem parsing `json` raises (nil: it parsed).
    func problem(_ json: String) -> String? {
        do {
            _ = try parse(json)
            return nil
        } catch {
            #expect(error.path == Self.path)
            return error.reason
        }
    }

    @Test func singleObject() throws {
        let json = """
            {"kind": "com.example.random-number", "displayName": "Random Number",
             "description": "Shows a random number",
             "supportedFamilies": ["systemSmall", "systemMedium", "systemSmall"],
             "provider": {"exec": ["./random-number-provider", "--fast"], "timeout": 15},
             "intent": {"type": "RandomNumber", "parameters": [], "supportedCombinations": []}}
            """
        let descriptors = try parse(json)
        #expect(descriptors.count == 1)
        let descriptor = try #require(descriptors.first)
        #expect(descriptor.kind == "com.example.random-number")
        #expect(descriptor.displayName == "Random Number")
        #expect(descriptor.description == "Shows a random number")
        // Duplicates collapse, order kept.
        #expect(descriptor.supportedFamilies == [.systemSmall, .systemMedium])
        #expect(descriptor.provider?.exec == ["/opt/widgets/widgets.d/random-number-provider", "--fast"])
        #expect(descriptor.provider?.timeout == 15)
        #expect(descriptor.intent?.type == "RandomNumber")
        #expect(descriptor.source == Self.path)
    }

    @Test func optionalFieldsDefault() throws {
        let descriptor = try #require(try parse(#"{"kind": "k_1", "supportedFamilies": ["accessoryInline"]}"#).first)
        #expect(descriptor.displayName == "k_1")
        #expect(descriptor.description == "")
        #expect(descriptor.provider == nil)
        #expect(descriptor.intent == nil)
    }

    @Test func arrayOfObjects() throws {
        let json = """
            [{"kind": "a.one", "supportedFamilies": ["systemSmall"], "provider": {"exec": ["bundle-provider"]}},
             {"kind": "a.two", "supportedFamilies": ["systemLarge"], "provider": {"exec": ["bundle-provider"], "timeout": 2.5}}]
            """
        let descriptors = try parse(json)
        #expect(descriptors.map(\.kind) == ["a.one", "a.two"])
        #expect(descriptors.map(\.supportedFamilies) == [[.systemSmall], [.systemLarge]])
        #expect(descriptors[1].provider?.timeout == 2.5)
        // One executable serving both kinds: equal keys, so their reloads can share a launch.
        #expect(descriptors[0].provider?.key == descriptors[1].provider?.key)
    }

    @Test func emptyArrayIsNoDescriptors() throws {
        #expect(try parse("[]").isEmpty)
    }

    @Test(arguments: [
        ("./providers/x", "/opt/widgets/widgets.d/providers/x"),
        ("providers/x", "/opt/widgets/widgets.d/providers/x"),
        ("../bin/x", "/opt/widgets/bin/x"),
        ("/usr/libexec/x", "/usr/libexec/x"),
        ("x-provider", "x-provider"),
    ])
    func execProgramResolution(program: String, resolved: String) throws {
        let json = #"{"kind": "k", "supportedFamilies": ["systemSmall"], "provider": {"exec": ["\#(program)", "./arg"]}}"#
        let exec = try #require(try parse(json).first?.provider?.exec)
        // Only the program is resolved; arguments are passed as written.
        #expect(exec == [resolved, "./arg"])
    }

    @Test func relativeDescriptorPathResolvesAgainstItsFolder() throws {
        let json = #"{"kind": "k", "supportedFamilies": ["systemSmall"], "provider": {"exec": ["./providers/x"]}}"#
        let exec = try #require(try parse(json, path: "widgets.d/k.json").first?.provider?.exec)
        #expect(exec == ["widgets.d/providers/x"])
    }

    @Test(arguments: [
        (#"{"supportedFamilies": ["systemSmall"]}"#, "$.kind: required string"),
        (#"{"kind": 5, "supportedFamilies": ["systemSmall"]}"#, "$.kind: required string"),
        (#"{"kind": "com.example/weather", "supportedFamilies": ["systemSmall"]}"#, "$.kind: 'com.example/weather'"),
        (#"{"kind": "wetter wär", "supportedFamilies": ["systemSmall"]}"#, "$.kind: "),
        (#"{"kind": "", "supportedFamilies": ["systemSmall"]}"#, "$.kind: "),
        (#"{"kind": "k"}"#, "$.supportedFamilies: required"),
        (#"{"kind": "k", "supportedFamilies": []}"#, "$.supportedFamilies: required"),
        (#"{"kind": "k", "supportedFamilies": ["systemSmall", ""]}"#, "$.supportedFamilies[1]: unknown family \"\""),
        (#"{"kind": "k", "supportedFamilies": ["systemSmall", "systemHuge"]}"#, "$.supportedFamilies[1]: unknown family"),
        (#"{"kind": "k", "supportedFamilies": ["systemSmall", 3]}"#, "$.supportedFamilies[1]: unknown family 3"),
        (#"{"kind": "k", "displayName": 1, "supportedFamilies": ["systemSmall"]}"#, "$.displayName: expected a string"),
        (#"{"kind": "k", "supportedFamilies": ["systemSmall"], "provider": "x"}"#, "$.provider: expected an object"),
        (#"{"kind": "k", "supportedFamilies": ["systemSmall"], "provider": {}}"#, "$.provider.exec: required"),
        (#"{"kind": "k", "supportedFamilies": ["systemSmall"], "provider": {"exec": []}}"#, "$.provider.exec: required"),
        (#"{"kind": "k", "supportedFamilies": ["systemSmall"], "provider": {"exec": ["x", ""]}}"#, "$.provider.exec[1]: "),
        (#"{"kind": "k", "supportedFamilies": ["systemSmall"], "provider": {"exec": ["x"], "timeout": 0}}"#, "$.provider.timeout: must be > 0"),
        (#"{"kind": "k", "supportedFamilies": ["systemSmall"], "provider": {"exec": ["x"], "timeout": -1.5}}"#, "$.provider.timeout: must be > 0"),
        (#"{"kind": "k", "supportedFamilies": ["systemSmall"], "provider": {"exec": ["x"], "timeout": 3601}}"#, "$.provider.timeout: must be > 0"),
        (#"{"kind": "k", "supportedFamilies": ["systemSmall"], "provider": {"exec": ["x"], "timeout": "5s"}}"#, "$.provider.timeout: expected a number"),
        (#"{"kind": "k", "supportedFamilies": ["systemSmall"], "provider": {"exec": ["x"], "memoryMax": 1024}}"#, "$.provider.memoryMax: expected an integer number of bytes in 16777216...1099511627776"),
        (#"{"kind": "k", "supportedFamilies": ["systemSmall"], "provider": {"exec": ["x"], "memoryMax": "512M"}}"#, "$.provider.memoryMax: expected an integer"),
        (#"{"kind": "k", "supportedFamilies": ["systemSmall"], "provider": {"exec": ["x"], "cpuMax": 0}}"#, "$.provider.cpuMax: expected an integer number of seconds in 1...86400"),
        (#"{"kind": "k", "supportedFamilies": ["systemSmall"], "intent": []}"#, "$.intent: expected an object"),
        ("{\"kind\": \"k\",", "not valid JSON"),
        ("", "not valid JSON"),
        ("42", "$: expected an object or an array of objects"),
        (#""com.example""#, "$: expected an object or an array of objects"),
        (#"[{"kind": "ok", "supportedFamilies": ["systemSmall"]}, {"supportedFamilies": ["systemSmall"]}]"#, "$[1].kind: required string"),
        (#"[{"kind": "ok", "supportedFamilies": ["systemSmall"]}, 7]"#, "$[1]: expected an object"),
    ])
    func errorsNameTheField(json: String, reason: String) {
        let actual = problem(json)
        #expect(actual?.hasPrefix(reason) == true, "got \(actual ?? "no error")")
    }

    @Test func unknownFamilyMessageListsTheKnownOnes() throws {
        let reason = try #require(problem(#"{"kind": "k", "supportedFamilies": ["systemSmall", "systemHuge"]}"#))
        #expect(reason.contains(#""systemHuge""#))
        #expect(reason.contains("accessoryRectangular"))
    }

    @Test func smallIntegerTimeoutIsANumber() throws {
        // 1 must not be read as `true`.
        let json = #"{"kind": "k", "supportedFamilies": ["systemSmall"], "provider": {"exec": ["x"], "timeout": 1}}"#
        #expect(try parse(json).first?.provider?.timeout == 1)
    }

    @Test func aKindMayAskForLowerLimitsOnly() throws {
        let json = #"{"kind": "k", "supportedFamilies": ["systemSmall"], "provider": {"exec": ["x"], "memoryMax": 33554432, "cpuMax": 5}}"#
        let provider = try #require(try parse(json).first?.provider)
        #expect(provider.memoryMax == 32 * 1024 * 1024 && provider.cpuMax == 5)
        var settings = DaemonSettings()
        #expect(settings.memoryMax(for: provider) == 32 * 1024 * 1024)
        #expect(settings.cpuMax(for: provider) == 5)
        settings.providerMemoryMax = 16 * 1024 * 1024
        settings.providerCPUMax = 2
        #expect(settings.memoryMax(for: provider) == 16 * 1024 * 1024)
        #expect(settings.cpuMax(for: provider) == 2)
        let plain = try #require(try parse(#"{"kind": "k", "supportedFamilies": ["systemSmall"], "provider": {"exec": ["x"]}}"#).first?.provider)
        #expect(settings.memoryMax(for: plain) == 16 * 1024 * 1024 && plain.memoryMax == nil)
    }

    @Test func kindOfMaximumLength() throws {
        let longest = String(repeating: "a", count: 200)
        #expect(try parse(#"{"kind": "\#(longest)", "supportedFamilies": ["systemSmall"]}"#).first?.kind == longest)
        #expect(problem(#"{"kind": "\#(longest)b", "supportedFamilies": ["systemSmall"]}"#)?.hasPrefix("$.kind: ") == true)
    }

    @Test(arguments: [
        ("clock.json", "com.example.clock", [WidgetFamily.systemSmall, .accessoryInline, .accessoryRectangular], "clock", 5.0),
        ("quote.json", "com.example.quote", [.systemMedium, .systemLarge], "quote", nil),
        ("system-load.json", "com.example.system-load", [.systemSmall, .systemMedium], "system-load", nil),
    ])
    func shippedDescriptorsParse(
        file: String, kind: String, families: [WidgetFamily], program: String, timeout: TimeInterval?
    ) throws {
        let folder = Repository.url.appendingPathComponent("etc/widgetd/widgets.d")
        let url = folder.appendingPathComponent(file)
        let descriptors = try DescriptorParser.parse(try Data(contentsOf: url), path: url.path)
        let descriptor = try #require(descriptors.first)
        #expect(descriptors.count == 1)
        #expect(descriptor.kind == kind)
        #expect(descriptor.supportedFamilies == families)
        #expect(descriptor.provider?.timeout == timeout)
        let exec = try #require(descriptor.provider?.exec)
        #expect(exec.count == 1)
        #expect(exec[0] == folder.appendingPathComponent("providers/\(program)").standardizedFileURL.path)
        #expect(FileManager.default.isExecutableFile(atPath: exec[0]))
    }

    /// `..` and `.` are resolved on the text only: a symlinked provider keeps its own name.
    @Test(arguments: [
        ("/etc/w/./p", "/etc/w/p"),
        ("/etc/w/../bin/p", "/etc/bin/p"),
        ("w/./sub/../p", "w/p"),
        ("../p", "../p"),
    ])
    func providerPathsNormaliseLexically(path: String, expected: String) {
        #expect(DescriptorParser.lexicallyNormalised(path) == expected)
    }
}
