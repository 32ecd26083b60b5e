import Testing
import WidgetCore
@testable import WidgetDaemon

/// The hand-over from the watchers' thread to the loop: one hop at a time, one reading per key.
@Suite struct ReadingMailboxTests {
    @Test func aFloodLeavesTheLatestOfEachAndOneHop() {
        let mailbox = ReadingMailbox()
        #expect(mailbox.put([.onBattery(true)]) == true, "the first reading asks for a hop")
        for index in 0..<10_000 {
            #expect(mailbox.put([.onBattery(index % 2 == 0), .locked(index % 3 == 0)]) == false)
        }
        #expect(mailbox.take() == [.onBattery(false), .locked(true)])
        #expect(mailbox.take().isEmpty)
        #expect(mailbox.put([.headphones(true)]) == true, "taken: the next reading asks for a hop again")
        #expect(mailbox.put([]) == false)
    }
}
