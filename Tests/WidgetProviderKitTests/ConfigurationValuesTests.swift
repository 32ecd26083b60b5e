import Foundation
import Testing
import WidgetProviderKit

@Suite("Configuration values")
struct ConfigurationValuesTests {
    let values: ConfigurationValues

    init() throws {
        values = try ConfigurationValues(
            json: Data(
                #"""
                {"name":"Kim","count":4,"ratio":2.5,"whole":3.0,"on":true,"when":"2026-01-05T08:00:00.5Z","tz":"2026-01-05T09:00:00+09:00",
                 "buttons":["scan","pay"],"sizes":[1,2],"mixed":[1,"a"],"days":["2026-01-05T00:00:00Z"],"flags":[true,false],"weights":[1,0.5]}
                """#.utf8))
    }

    @Test("typed accessors read their own type")
    func scalars() {
        #expect(values.string("name") == "Kim")
        #expect(values.integer("count") == 4)
        #expect(values.integer("whole") == 3)
        #expect(values.integer("ratio") == nil)
        #expect(values.decimal("ratio") == 2.5)
        #expect(values.decimal("count") == 4)
        #expect(values.bool("on") == true)
        #expect(values.date("when") == Date(timeIntervalSince1970: 1_767_600_000.5))
        #expect(values.date("tz") == Date(timeIntervalSince1970: 1_767_571_200))
        #expect(values.date("name") == nil)
    }

    @Test("a wrong type or a missing parameter reads as nil")
    func mismatches() {
        #expect(values.string("count") == nil)
        #expect(values.bool("name") == nil)
        #expect(values.integer("missing") == nil)
        #expect(!values.contains("missing"))
        #expect(values.contains("name"))
        #expect(values.names.first == "buttons")
    }

    @Test("multiple parameters read as arrays")
    func arrays() {
        #expect(values.strings("buttons") == ["scan", "pay"])
        #expect(values.integers("sizes") == [1, 2])
        #expect(values.decimals("weights") == [1, 0.5])
        #expect(values.bools("flags") == [true, false])
        #expect(values.dates("days") == [Date(timeIntervalSince1970: 1_767_571_200)])
        #expect(values.strings("mixed") == nil)
        #expect(values.strings("name") == nil)
    }

    @Test("the whole configuration decodes into an intent struct")
    func decode() throws {
        struct Intent: Decodable {
            var name: String
            var count: Int
            var when: Date
            var buttons: [String]
            var missing: String?
        }
        let intent = try values.decode(Intent.self)
        #expect(intent.name == "Kim")
        #expect(intent.count == 4)
        #expect(intent.when == Date(timeIntervalSince1970: 1_767_600_000.5))
        #expect(intent.buttons == ["scan", "pay"])
        #expect(intent.missing == nil)
    }

    @Test("a configuration must be an object")
    func notAnObject() {
        #expect(throws: (any Error).self) { try ConfigurationValues(json: Data("[1]".utf8)) }
    }
}
