import Testing
import WidgetCore

/// `[context]` in widgetd.conf.
@Suite struct ContextSettingsTests {
    @Test func theLocationSourceCanBeSwitchedOff() throws {
        #expect(try DaemonSettings.parse("").context.location == true)
        #expect(try DaemonSettings.parse("[context]\nlocation = off\n").context.location == false)
        #expect(try DaemonSettings.parse("[context]\nlocation = on\n").context.location == true)
    }

    @Test(arguments: [
        ("[context]\nlocation = maybe\n", "location: 'maybe' is not on or off"),
        ("[context]\ncity = Berlin\n", "unknown key 'city' in [context]"),
    ])
    func badValuesAreRefusedWithTheirLine(text: String, reason: String) {
        do {
            _ = try DaemonSettings.parse(text)
            Issue.record("accepted: \(text)")
        } catch {
            #expect(error.line == 2)
            #expect(error.reason == reason)
        }
    }
}
