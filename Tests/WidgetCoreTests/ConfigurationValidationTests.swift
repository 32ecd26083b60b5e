import Foundation
import Testing
@testable import WidgetCore

/// Configurations checked against a schema: defaults, showIf, every error naming the parameter.
@Suite("Configuration validation")
struct ConfigurationValidationTests {
    static let schema = IntentSchema(
        type: "Demo",
        parameters: [
            IntentParameter(name: "useCustomRange", title: "Custom", type: .boolean, default: .bool(false)),
            IntentParameter(name: "maxNumber", title: "Max", type: .integer, default: .integer(100), min: 1, max: 200,
                            showIf: ShowIf(parameter: "useCustomRange", equals: .bool(false))),
            IntentParameter(name: "customRange", title: "Range", type: .entity,
                            showIf: ShowIf(parameter: "useCustomRange", equals: .bool(true))),
            IntentParameter(name: "character", title: "Character", type: .enum,
                            cases: [EnumCase(id: "panda", display: "Power Panda"), EnumCase(id: "egghead", display: "Egghead")]),
            IntentParameter(name: "ratio", title: "Ratio", type: .decimal, min: 0, max: 1),
            IntentParameter(name: "label", title: "Label", type: .string),
            IntentParameter(name: "since", title: "Since", type: .date),
            IntentParameter(name: "buttons", title: "Buttons", type: .entity, multiple: true, count: [.systemMedium: 4]),
        ],
        supportedCombinations: [])

    func effective(_ given: [String: JSONValue], _ family: WidgetFamily = .systemSmall) throws(ConfigurationError) -> [String: JSONValue] {
        try Self.schema.effectiveConfiguration(given, family: family)
    }

    func error(_ given: [String: JSONValue], _ family: WidgetFamily = .systemSmall) -> ConfigurationError? {
        do {
            _ = try effective(given, family)
            return nil
        } catch {
            return error
        }
    }

    @Test func defaultsFillWhatIsMissing() throws {
        #expect(try effective([:]) == ["useCustomRange": .bool(false), "maxNumber": .integer(100)])
    }

    @Test func showIfDropsHiddenParameters() throws {
        // maxNumber is shown only while useCustomRange is false; customRange only while true.
        let custom = try effective(["useCustomRange": .bool(true), "maxNumber": .integer(50), "customRange": .string("1-10")])
        #expect(custom == ["useCustomRange": .bool(true), "customRange": .string("1-10")])
        let plain = try effective(["maxNumber": .integer(50), "customRange": .string("1-10")])
        #expect(plain == ["useCustomRange": .bool(false), "maxNumber": .integer(50)])
    }

    @Test func nullUnsetsAValue() throws {
        #expect(try effective(["maxNumber": .null])["maxNumber"] == .integer(100))
    }

    @Test(arguments: [
        (["colour": JSONValue.string("red")], "colour", "unknown parameter"),
        (["maxNumber": .string("ten")], "maxNumber", "expected an integer, got \"ten\""),
        (["maxNumber": .number(2.5)], "maxNumber", "expected an integer, got 2.5"),
        (["maxNumber": .integer(0)], "maxNumber", "0 is below the minimum 1"),
        (["maxNumber": .integer(201)], "maxNumber", "201 is above the maximum 200"),
        (["ratio": .number(1.5)], "ratio", "1.5 is above the maximum 1"),
        (["useCustomRange": .string("yes")], "useCustomRange", "expected true or false, got \"yes\""),
        (["character": .string("dragon")], "character", "unknown case \"dragon\" (cases: panda, egghead)"),
        (["label": .integer(3)], "label", "expected a string, got 3"),
        (["since": .string("yesterday")], "since", "expected an ISO 8601 date with a zone, got \"yesterday\""),
        (["buttons": .string("scan")], "buttons", "expected an array of entity values"),
    ])
    func eachErrorNamesTheParameter(given: [String: JSONValue], parameter: String, reason: String) {
        let failure = error(given)
        #expect(failure?.parameter == parameter)
        #expect(failure?.reason.hasPrefix(reason) == true, "\(failure?.reason ?? "no error")")
    }

    @Test func fixedCountPerFamily() throws {
        let four: JSONValue = .array(["scan", "pay", "card", "bills"].map(JSONValue.string))
        #expect(try effective(["buttons": four], .systemMedium)["buttons"] == four)
        let three: JSONValue = .array(["scan", "pay", "card"].map(JSONValue.string))
        #expect(error(["buttons": three], .systemMedium)?.reason == "expected exactly 4 values for systemMedium, got 3")
        // No count for systemSmall: any length.
        #expect(try effective(["buttons": three], .systemSmall)["buttons"] == three)
        // Required when the family fixes a count and there is no default.
        #expect(error([:], .systemMedium)?.reason == "required: exactly 4 values for systemMedium")
    }

    @Test func entitiesMustBeOffered() throws {
        let config = try effective(["useCustomRange": .bool(true), "customRange": .string("1-10")])
        #expect(Self.schema.entityParameters(in: config) == ["customRange"])
        #expect(throws: Never.self) {
            try Self.schema.checkEntities(config, family: .systemSmall, options: ["customRange": ["1-10", "1-100"]])
        }
        do {
            try Self.schema.checkEntities(config, family: .systemSmall, options: ["customRange": ["1-100"]])
            Issue.record("accepted an id the provider does not offer")
        } catch {
            #expect(error.parameter == "customRange")
            #expect(error.reason == "'1-10' is not offered by the provider (options: 1-100)")
        }
    }

    @Test func aKindWithoutSchemaTakesNoConfiguration() throws {
        let descriptor = WidgetDescriptor(
            kind: "k", displayName: "k", description: "", supportedFamilies: [.systemSmall], provider: nil, intent: nil,
            source: "x")
        #expect(try descriptor.effectiveConfiguration([:], family: .systemSmall) == [:])
        #expect(throws: ConfigurationError.self) { try descriptor.effectiveConfiguration(["a": .integer(1)], family: .systemSmall) }
    }

    @Test func storedConfigurationsFollowTheSchema() {
        // An older descriptor had `colour`; maxNumber 500 no longer fits; the default comes back.
        let stored: [String: JSONValue] = ["colour": .string("red"), "maxNumber": .integer(500), "character": .string("panda")]
        #expect(Self.schema.normalized(stored, family: .systemSmall)
            == ["useCustomRange": .bool(false), "maxNumber": .integer(100), "character": .string("panda")])
    }
}
