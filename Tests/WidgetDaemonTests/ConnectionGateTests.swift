import Testing
@testable import WidgetDaemon

/// `max-connections`: who is admitted, and how often a refusal is worth a log line.
@Suite struct ConnectionGateTests {
    let start = ContinuousClock.now

    @Test func admitsUpToTheLimitAndAgainAfterARelease() {
        let gate = ConnectionGate(max: 2)
        #expect(gate.admit(now: start) == .admitted)
        #expect(gate.admit(now: start) == .admitted)
        #expect(gate.admit(now: start) == .refused(report: 1))
        #expect(gate.open == 2)
        gate.release()
        #expect(gate.admit(now: start) == .admitted)
        #expect(gate.open == 2)
    }

    @Test func refusalsAreReportedOnceAMinuteWithTheirCount() {
        let gate = ConnectionGate(max: 1)
        #expect(gate.admit(now: start) == .admitted)
        #expect(gate.admit(now: start) == .refused(report: 1))
        for second in 1...59 {
            #expect(gate.admit(now: start + .seconds(second)) == .refused(report: nil))
        }
        // The next report counts every refusal since the last one, itself included.
        #expect(gate.admit(now: start + .seconds(60)) == .refused(report: 60))
        #expect(gate.admit(now: start + .seconds(61)) == .refused(report: nil))
    }

    @Test func aLowerLimitClosesNothingButAdmitsNoOneUntilBelowIt() {
        let gate = ConnectionGate(max: 3)
        for _ in 0..<3 { #expect(gate.admit(now: start) == .admitted) }
        gate.setMax(1)
        #expect(gate.admit(now: start) == .refused(report: 1))
        gate.release()
        gate.release()
        #expect(gate.admit(now: start + .seconds(1)) != .admitted)
        gate.release()
        #expect(gate.admit(now: start + .seconds(2)) == .admitted)
        #expect(gate.max == 1)
    }
}
