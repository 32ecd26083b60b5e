import Foundation
import Testing
import WidgetCore

/// `explain`'s sentence names the candidates that tie with the best and what broke the tie.
@Suite struct ExplainWording {
    private func candidate(_ id: String, _ rank: Double) -> RankedCandidate {
        RankedCandidate(
            instance: id, score: rank, relevanceSince: nil, relevanceUntil: nil, relevance: rank, affinity: 0,
            donations: [], eligible: true, rank: rank)
    }

    @Test func aClearBestIsToldAlone() {
        let best = candidate("a", 0.9)
        #expect(DaemonState.bestRank(best, among: [best, candidate("b", 0.5)]) == "a ranks best (0.900)")
    }

    @Test func exactTiesAreNamedWithTheStackOrderThatBrokeThem() {
        let best = candidate("a", 1)
        let text = DaemonState.bestRank(best, among: [best, candidate("b", 1), candidate("c", 1), candidate("d", 0.2)])
        #expect(text == "a ranks best (1.000), tied with b, c: of equal ranks the first in stack order goes first")
    }

    @Test func ranksThatOnlyPrintTheSameAreToldApart() {
        let best = candidate("a", 0.80004)
        #expect(DaemonState.bestRank(best, among: [best, candidate("b", 0.8)])
            == "a ranks best (0.800), ahead of b by less than 0.001")
        let tied = DaemonState.bestRank(best, among: [best, candidate("b", 0.8), candidate("c", 0.80004)])
        #expect(tied == "a ranks best (0.800), tied with c: of equal ranks the first in stack order goes first; "
            + "ahead of b by less than 0.001")
    }
}
