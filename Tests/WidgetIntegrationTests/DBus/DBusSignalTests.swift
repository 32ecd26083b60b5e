import Foundation
import Glibc
import Testing
@testable import WidgetTestSupport
@testable import WidgetIntegrationSupport

extension Integration {
    /// `WidgetCenter1`'s signals, as `gdbus monitor` receives them: the event stream's entry
    /// changes, reloads, rotations and invalidations.
    @Suite struct DBusSignals {
        @Test(.needs(PrivateBus.unavailable))
        func reloadsEntryChangesRotationsAndInvalidationsAreSignalled() throws {
            let fixture = try DaemonFixture()
            let bus = try PrivateBus.withWidgetd(fixture)
            let output = fixture.directory + "/monitor.log"
            let monitor = try bus.monitor(output: output)
            defer {
                kill(monitor.processIdentifier, SIGTERM)
                monitor.waitUntilExit()
            }
            try PrivateBus.waitFor(["Monitoring signals from all objects owned by \(PrivateBus.name)"], in: output)

            #expect(fixture.ctl("stack", "create", "home").status == 0)
            let random = try fixture.add("com.example.random-number")
            let ranger = try fixture.add("com.example.emoji-rangers", "character=egghead")
            #expect(fixture.ctl("stack", "add", "home", random, ranger).status == 0)
            // The first reloads (a first timeline is no entry change); Egghead's relevance then puts
            // it on top of the stack.
            #expect(fixture.ctl("clock", "advance", "0s").status == 0)
            let signal = "\(PrivateBus.path): \(PrivateBus.name)."
            try PrivateBus.waitFor([
                signal + "TimelineChanged ('\(random)', 'com.example.random-number')",
                signal + "TimelineChanged ('\(ranger)', 'com.example.emoji-rangers')",
                signal + "Rotated ('home', '\(random)', '\(ranger)', 'betterCandidate')",
            ], in: output)

            // A pushed timeline changes the entry shown.
            let pushed = try fixture.add("com.example.random-number", family: "systemMedium")
            let timeline = #"{"entries":[{"date":"2026-01-05T09:00:00Z","content":{"number":7}}],"policy":"never"}"#
            #expect(fixture.ctl(["push", pushed, "-"], stdin: timeline).status == 0)
            try PrivateBus.waitFor([signal + "EntryChanged ('\(pushed)', 'com.example.random-number')"], in: output)

            // A performed action invalidates the instance until its reload.
            let todo = try fixture.add("com.example.todo", "list=work")
            #expect(fixture.ctl("clock", "advance", "0s").status == 0)
            #expect(bus.gdbusCall("Perform", [todo, "done-slides"]).status == 0)
            try PrivateBus.waitFor([signal + "Invalidated ('\(todo)', 'done-slides')"], in: output)
        }
    }
}
