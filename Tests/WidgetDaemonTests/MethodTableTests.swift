import Foundation
import Testing
import WidgetCore
import WidgetProtocol
@testable import WidgetDaemon
@testable import WidgetTestSupport

/// The method table declares every method once, with who may call it.
@Suite struct MethodTableTests {
    @Test func everyMethodIsDeclaredOnceAndClassified() {
        let open: Set<RPCMethod> = [
            .ping, .status, .widgets, .list, .timeline, .schedule, .budget, .clock, .log, .explain, .subscribe, .stackShow, .simulate,
            .stackList, .preview, .placeholder, .options,
        ]
        let manage: Set<RPCMethod> = [
            .add, .remove, .configure, .clockAdvance, .clockSet, .stackCreate, .stackAdd, .stackSwipe, .stackSmartRotate,
            .stackRemove, .visible, .widgetsReload,
        ]
        let kinds: [RPCMethod: KindVerb] = [
            .push: .push, .reloadTimelines: .reload, .reloadAllTimelines: .reload, .invalidateRelevance: .reload, .perform: .reload, .donate: .donate, .donationsDelete: .donate, .donationsList: .donate,
            .invalidateConfigurationRecommendations: .invalidate,
        ]
        let all = MethodTable.instances + MethodTable.timelines + MethodTable.stacks + MethodTable.donations
            + MethodTable.clock + MethodTable.introspection
        #expect(all.count == RPCMethod.allCases.count)
        #expect(Set(all.map(\.method)) == Set(RPCMethod.allCases))
        for entry in all {
            switch entry.access {
            case .open: #expect(open.contains(entry.method), "\(entry.method)")
            case .manage: #expect(manage.contains(entry.method), "\(entry.method)")
            case .kinds(let verb): #expect(kinds[entry.method] == verb, "\(entry.method)")
            }
        }
        #expect(open.count + manage.count + kinds.count == RPCMethod.allCases.count)
    }

    @Test func anUnknownMethodIsNotFound() async throws {
        let harness = try Harness()
        let answer = await harness.call("nope")
        #expect(answer.errorCode == -32601)
        #expect(answer.errorMessage == "method not found: 'nope'")
    }
}
