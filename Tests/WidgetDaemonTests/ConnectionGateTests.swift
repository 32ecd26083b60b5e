import Testing
import WidgetCore
@testable import WidgetDaemon

/// The connection keys of `[limits]`: who is admitted, which key a refusal names, and how
/// often a refusal is worth a log line.
@Suite struct ConnectionGateTests {
    let start = ContinuousClock.now

    static func gate(max: Int, perUID: Int = 65_536, reserved: Int = 0) -> ConnectionGate {
        var settings = LimitSettings()
        settings.maxConnections = max
        settings.maxConnectionsPerUID = perUID
        settings.reservedConnections = reserved
        return ConnectionGate(limits: .init(settings))
    }

    /// The key a refusal names, or nil when admitted.
    func refusedKey(_ admission: ConnectionGate.Admission) -> String? {
        if case .refused(let exceeded, _) = admission { return exceeded.setting }
        return nil
    }

    @Test func admitsUpToTheLimitAndAgainAfterARelease() {
        let gate = Self.gate(max: 2)
        #expect(gate.admit(uid: 0, .unrestricted, now: start) == .admitted)
        #expect(gate.admit(uid: 0, .unrestricted, now: start) == .admitted)
        #expect(gate.admit(uid: 0, .unrestricted, now: start) == .refused(.connections(max: 2), report: 1))
        #expect(gate.open == 2)
        gate.release(uid: 0)
        #expect(gate.admit(uid: 0, .unrestricted, now: start) == .admitted)
        #expect(gate.open == 2)
    }

    @Test func refusalsAreReportedOnceAMinuteWithTheirCount() {
        let gate = Self.gate(max: 1)
        #expect(gate.admit(uid: 0, .unrestricted, now: start) == .admitted)
        #expect(gate.admit(uid: 0, .unrestricted, now: start) == .refused(.connections(max: 1), report: 1))
        for second in 1...59 {
            #expect(gate.admit(uid: 0, .unrestricted, now: start + .seconds(second)) == .refused(.connections(max: 1), report: nil))
        }
        // The next report counts every refusal since the last one, itself included.
        #expect(gate.admit(uid: 0, .unrestricted, now: start + .seconds(60)) == .refused(.connections(max: 1), report: 60))
        #expect(gate.admit(uid: 0, .unrestricted, now: start + .seconds(61)) == .refused(.connections(max: 1), report: nil))
    }

    @Test func aLowerLimitClosesNothingButAdmitsNoOneUntilBelowIt() {
        let gate = Self.gate(max: 3)
        for _ in 0..<3 { #expect(gate.admit(uid: 0, .unrestricted, now: start) == .admitted) }
        var lower = gate.limits
        lower.max = 1
        gate.setLimits(lower)
        #expect(refusedKey(gate.admit(uid: 0, .unrestricted, now: start)) == "max-connections")
        gate.release(uid: 0)
        gate.release(uid: 0)
        #expect(gate.admit(uid: 0, .unrestricted, now: start + .seconds(1)) != .admitted)
        gate.release(uid: 0)
        #expect(gate.admit(uid: 0, .unrestricted, now: start + .seconds(2)) == .admitted)
        #expect(gate.max == 1)
    }

    @Test func oneUIDHoldsItsShareAndTheOthersStillGetIn() {
        let gate = Self.gate(max: 10, perUID: 3)
        for _ in 0..<3 { #expect(gate.admit(uid: 1000, .host, now: start) == .admitted) }
        let refused = gate.admit(uid: 1000, .host, now: start)
        #expect(refused == .refused(.connectionsPerUID(max: 3, uid: 1000), report: 1))
        #expect(refusedKey(refused) == "max-connections-per-uid")
        #expect(gate.open == 3 && gate.open(uid: 1000) == 3)
        // Another user, a reader, and root are not held to uid 1000's share.
        #expect(gate.admit(uid: 1001, .host, now: start) == .admitted)
        #expect(gate.admit(uid: 1002, .other, now: start) == .admitted)
        // Root and the daemon's uid have no share of their own.
        for _ in 0..<5 { #expect(gate.admit(uid: 0, .unrestricted, now: start) == .admitted) }
        #expect(gate.open == 10)
        // A release gives uid 1000 its place back.
        gate.release(uid: 1000)
        #expect(gate.open(uid: 1000) == 2)
        #expect(gate.admit(uid: 1000, .host, now: start) == .admitted)
        #expect(refusedKey(gate.admit(uid: 1000, .host, now: start)) == "max-connections-per-uid")
        #expect(refusedKey(gate.admit(uid: 1003, .host, now: start)) == "max-connections")
    }

    @Test func theReservedSlotsAreForRootAndTheHostGroup() {
        let gate = Self.gate(max: 8, perUID: 100, reserved: 3)
        // Readers from any number of uids fill max - reserved.
        for uid in 0..<5 { #expect(gate.admit(uid: 2000 + UInt32(uid), .other, now: start) == .admitted) }
        let reader = gate.admit(uid: 2100, .other, now: start)
        #expect(reader == .refused(.reservedConnections(open: 5, reserved: 3), report: 1))
        #expect(refusedKey(reader) == "reserved-connections")
        // A host-group member and root take the reserved ones.
        #expect(gate.admit(uid: 1000, .host, now: start) == .admitted)
        #expect(gate.admit(uid: 1001, .host, now: start) == .admitted)
        #expect(gate.admit(uid: 0, .unrestricted, now: start) == .admitted)
        // Then everyone is refused, by max-connections.
        #expect(refusedKey(gate.admit(uid: 0, .unrestricted, now: start)) == "max-connections")
        #expect(refusedKey(gate.admit(uid: 1002, .host, now: start)) == "max-connections")
    }

    @Test func atMostHalfTheSlotsAreReserved() {
        // A small max-connections with the default reserve still lets readers in.
        let gate = Self.gate(max: 4, perUID: 100, reserved: 32)
        #expect(gate.admit(uid: 2000, .other, now: start) == .admitted)
        #expect(gate.admit(uid: 2001, .other, now: start) == .admitted)
        #expect(gate.admit(uid: 2002, .other, now: start) == .refused(.reservedConnections(open: 2, reserved: 2), report: 1))
        #expect(gate.admit(uid: 0, .unrestricted, now: start) == .admitted)
        #expect(gate.admit(uid: 1000, .host, now: start) == .admitted)
        #expect(gate.open == 4)
    }

    @Test func theMessagesNameTheKeys() {
        #expect(
            LimitExceeded.connectionsPerUID(max: 64, uid: 1000).description
                == "limit exceeded: 64 open connections of uid 1000 (max-connections-per-uid in [limits] of widgetd.conf)")
        #expect(
            LimitExceeded.reservedConnections(open: 224, reserved: 32).description
                == "limit exceeded: 224 open connections; the other 32 are kept for root and the host group "
                + "(reserved-connections in [limits] of widgetd.conf)")
        #expect(
            LimitExceeded.lineTimeout(seconds: 30).description
                == "limit exceeded: a request line not ended within 30 s (line-timeout in [limits] of widgetd.conf)")
    }
}
