import Foundation
import Testing
@testable import WidgetIntegrationSupport

extension Integration {
    /// A service that floods the bus with signals cannot starve the control socket: the
    /// watchers read them on their own thread and hand the engine only the latest value.
    @Suite struct SessionFlood {
        /// Signals the mock sends, as fast as dbus-python can.
        static let signals = 20_000
        /// The bound a `widgetctl status` must be answered within during the flood.
        static let bound: Double = 5

        @Test func aFloodOfSignalsLeavesTheSocketAnswered() throws {
            let fixture = try DaemonFixture()
            let session = try SessionBus(fixture)
            let upower = try session.upower(onBattery: false)
            try session.startWidgetd()
            try session.waitFor("power", "ac")
            // The flood alternates the value and ends on true.
            try upower.mock("AddMethod", "sssss", [
                "org.freedesktop.UPower", "Flood", "i", "",
                "for n in range(args[0]): self.EmitSignal('org.freedesktop.DBus.Properties', 'PropertiesChanged', 'sa{sv}as', "
                    + "['org.freedesktop.UPower', {'OnBattery': dbus.Boolean(n % 2 == 1, variant_level=1)}, []])",
            ])

            let done = DispatchSemaphore(value: 0)
            let call = [
                "--address=" + session.bus.address, "--timeout=120", "call", upower.name, upower.path, "org.freedesktop.UPower", "Flood",
                "i", String(Self.signals),
            ]
            let flood = Thread {
                _ = CommandRun.run(PrivateBus.busctl, call, environment: ["PATH": "/usr/bin:/bin"], deadline: 120)
                done.signal()
            }
            flood.start()
            var answered = 0
            var slowest: Double = 0
            while done.wait(timeout: .now()) == .timedOut {
                let start = ContinuousClock.now
                let status = fixture.ctl("status")
                let took = (ContinuousClock.now - start) / .seconds(1)
                #expect(status.status == 0, "status during the flood: \(status.stderr)")
                #expect(took < Self.bound, "a status took \(took) s during the flood (bound \(Self.bound) s)")
                slowest = max(slowest, took)
                answered += 1
            }
            // The last value of the flood is the one the engine keeps.
            try session.waitFor("power", "battery")
            print("flood of \(Self.signals) signals: \(answered) status calls answered during it, slowest \(slowest) s")
            #expect(answered >= 1)
        }
    }
}
