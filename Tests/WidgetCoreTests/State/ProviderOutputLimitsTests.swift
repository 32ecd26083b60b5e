import Foundation
import Testing
@testable import WidgetCore
@testable import WidgetTestSupport

/// Byte limits beside the row limits (`max-donation-bytes`, `max-configuration-bytes`) and the
/// rate of launches a caller may cause (`preview-launches-per-minute`), on a manual clock.
@Suite struct ProviderOutputLimitsTests {
    @Test func defaultsAndKeys() throws {
        let defaults = try DaemonSettings.parse("")
        #expect(defaults.limits.maxDonationBytes == 16_384)
        #expect(defaults.limits.maxConfigurationBytes == 65_536)
        #expect(defaults.previewLaunchesPerMinute == 120)
        let settings = try DaemonSettings.parse("""
            [limits]
            max-donation-bytes = 100
            max-configuration-bytes = 200
            [providers]
            preview-launches-per-minute = 3
            """)
        #expect(settings.limits.maxDonationBytes == 100)
        #expect(settings.limits.maxConfigurationBytes == 200)
        #expect(settings.previewLaunchesPerMinute == 3)
    }

    @Test(arguments: [
        ("[limits]\nmax-donation-bytes = 15\n", "max-donation-bytes: '15' is not an integer in 16...67108864"),
        ("[limits]\nmax-configuration-bytes = 67108865\n", "max-configuration-bytes: '67108865' is not an integer in 16...67108864"),
        ("[providers]\npreview-launches-per-minute = 0\n", "preview-launches-per-minute: '0' is not an integer in 1...100000"),
        ("[limits]\npreview-launches-per-minute = 5\n", "unknown key 'preview-launches-per-minute' in [limits]"),
    ])
    func badValuesAreRefused(text: String, reason: String) {
        #expect {
            try DaemonSettings.parse(text)
        } throws: { error in
            (error as? SettingsError)?.reason == reason && (error as? SettingsError)?.line == 2
        }
    }

    @Test func aDonationOverTheByteLimitIsRefusedWithNothingPlanned() throws {
        var settings = DaemonSettings()
        settings.limits.maxDonationBytes = 100
        var state = makeState(settings: settings)
        // {"city":"…"} is 11 bytes around the value, and "Clock" 5 more.
        let fits = Donation(intentType: "Clock", parameters: ["city": .string(String(repeating: "a", count: 84))], date: t0)
        state.apply(try state.planDonate(fits, at: t0, reserved: LimitReservations()).plan)
        for donation in [
            Donation(intentType: "Clock", parameters: ["city": .string(String(repeating: "a", count: 85))], date: t0),
            Donation(intentType: "Clock", parameters: [:], date: t0, group: String(repeating: "g", count: 100)),
            Donation(intentType: "Clock", parameters: [:], date: t0, id: String(repeating: "i", count: 100)),
            Donation(intentType: String(repeating: "T", count: 101), parameters: [:], date: t0),
        ] {
            let exceeded = Self.exceeded { try state.planDonate(donation, at: t0, reserved: LimitReservations()) }
            #expect(exceeded?.setting == "max-donation-bytes")
            #expect(exceeded?.max == 100)
            #expect((exceeded?.actual ?? 0) > 100)
            #expect(exceeded?.description.hasSuffix("(max-donation-bytes in [limits] of widgetd.conf)") == true)
        }
        #expect(state.donations.count == 1)
    }

    @Test func aConfigurationOverTheByteLimitIsRefusedOnAddAndConfigure() throws {
        var settings = DaemonSettings()
        settings.limits.maxConfigurationBytes = 50
        var state = makeState(settings: settings)
        let (id, _) = try state.added(configuration: ["city": .string("Oslo")])
        let big: [String: JSONValue] = ["city": .string(String(repeating: "x", count: 50))]
        for refused in [
            Self.exceeded { try state.checkConfigurationSize(big) },
            Self.exceeded { try state.added(configuration: big) },
            Self.exceeded { try state.configurationToValidate(id, given: big, replace: false) },
            Self.exceeded { try state.planConfigure(id, configuration: big, at: t0) },
        ] {
            #expect(refused?.setting == "max-configuration-bytes" && refused?.section == "limits" && refused?.max == 50)
        }
        #expect(state.instances.count == 1)
        #expect(state.instances[id]?.instance.configuration == ["city": .string("Oslo")])
    }

    @Test func theLaunchWindowAdmitsTheLimitPerCallerPerMinute() {
        var window = CallerLaunchWindow()
        let steps: [(uid: UInt32, at: TimeInterval, admitted: Bool)] = [
            (1000, 0, true), (1000, 1, true), (1000, 2, true), (1000, 3, false),
            // Another caller has a window of its own.
            (1001, 3, true),
            // A refusal is not counted: the first launch leaves the window a minute after it.
            (1000, 59.9, false), (1000, 60, true), (1000, 60.5, false), (1000, 61, true),
        ]
        for step in steps {
            let admitted = window.admit(step.uid, limit: 3, at: t0 + step.at)
            #expect(admitted == step.admitted, "uid \(step.uid) at +\(step.at) s")
        }
        #expect(window.callers(at: t0 + 61) == 2)
        #expect(window.callers(at: t0 + 200) == 0)
    }

    @Test func aClockSetBackForgetsTheLaterLaunches() {
        var window = CallerLaunchWindow()
        let admitted = [t0 + 3600, t0 + 3601, t0].map { window.admit(5, limit: 1, at: $0) }
        #expect(admitted == [true, false, true])
    }

    @Test func idleCallersAreForgotten() {
        var window = CallerLaunchWindow()
        for uid in 0..<UInt32(1000) { _ = window.admit(uid, limit: 2, at: t0) }
        #expect(window.callers(at: t0) == 1000)
        // Once more than a few callers are known, those idle for a minute go.
        for uid in 2000..<UInt32(2100) { _ = window.admit(uid, limit: 2, at: t0 + 120) }
        #expect(window.callers(at: t0 + 120) == 100)
        #expect(window.knownCallers <= 100)
    }

    @Test func theStateRefusesPastTheSettingNamingItsSection() {
        var settings = DaemonSettings()
        settings.previewLaunchesPerMinute = 2
        var state = makeState(settings: settings)
        #expect(Self.exceeded { try state.admitPreviewLaunch(for: 1000, at: t0) } == nil)
        #expect(Self.exceeded { try state.admitPreviewLaunch(for: 1000, at: t0 + 1) } == nil)
        let exceeded = Self.exceeded { try state.admitPreviewLaunch(for: 1000, at: t0 + 2) }
        #expect(exceeded?.setting == "preview-launches-per-minute" && exceeded?.section == "providers" && exceeded?.max == 2)
        #expect(exceeded?.description.hasSuffix("(preview-launches-per-minute in [providers] of widgetd.conf)") == true)
        #expect(Self.exceeded { try state.admitPreviewLaunch(for: 1000, at: t0 + 60) } == nil)
    }

    /// The limit `body` was refused for; nil when it was not refused.
    static func exceeded<T>(_ body: () throws -> T) -> LimitExceeded? {
        do {
            _ = try body()
            return nil
        } catch {
            guard case .limitExceeded(let exceeded)? = error as? StateError else {
                Issue.record("not a limit: \(error)")
                return nil
            }
            return exceeded
        }
    }
}
