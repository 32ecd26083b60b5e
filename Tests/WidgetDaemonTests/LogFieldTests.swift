import Testing
@testable import WidgetDaemon

/// Journal field names are upper-case letters, digits and `_`, not starting with `_`.
@Suite struct LogFieldTests {
    @Test(arguments: [
        ("instance", "INSTANCE"),
        ("sl-service", "SL_SERVICE"),
        ("_private", "PRIVATE"),
        ("9lives", "F9LIVES"),
        ("ünïcode key", "N_CODE_KEY"),
        ("", "F"),
    ])
    func sanitisedNames(key: String, expected: String) {
        #expect(JournalLogHandler.fieldName(key) == expected)
    }
}
