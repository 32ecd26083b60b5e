import Foundation
import Testing
@testable import WidgetIntegrationSupport

extension Integration {
    /// Crash safety under repeated SIGKILL: eight clients on two connections each add,
    /// configure, push, donate, build stacks, swipe and remove while widgetd is killed at
    /// seeded points (a number of answered requests) and restarted on the same state. After
    /// every restart each acknowledged change is there, and each unanswered request is there
    /// whole or not at all. By default 24 kills and over 10,000 changes; `WIDGETD_KILL_CAMPAIGN`
    /// = `quick` (6 kills) or a number of kills sizes it, `WIDGETD_KILL_CAMPAIGN_SEED` seeds it.
    @Suite struct KillCampaign {
        @Test func everyAcknowledgedChangeSurvivesRepeatedSIGKILL() throws {
            let size = KillCampaignSize.fromEnvironment()
            let fixture = try DaemonFixture()
            let summary = try KillCampaignRunner(fixture: fixture, size: size).run()
            print(summary.text)
            #expect(summary.failures.isEmpty, "\(summary.failures.prefix(20).joined(separator: "\n"))")
            #expect(summary.lost == 0)
            #expect(summary.kills == size.kills)
            #expect(summary.totalAcknowledged >= size.kills * size.acknowledgedPerRound.lowerBound)
        }
    }
}
