import Foundation

/// Summary of a set of samples (e.g. latencies in nanoseconds): all of them are kept and
/// sorted, percentiles by nearest rank (p99 of 10,000 samples is the 9,900th smallest).
public struct LoadStatistics: Sendable {
    public let sorted: [Double]

    public init<S: Sequence>(_ samples: S) where S.Element: BinaryInteger {
        sorted = samples.map { Double($0) }.sorted()
    }

    public init<S: Sequence>(_ samples: S) where S.Element == Double {
        sorted = samples.sorted()
    }

    public var count: Int { sorted.count }
    public var isEmpty: Bool { sorted.isEmpty }
    public var min: Double { sorted.first ?? .nan }
    public var max: Double { sorted.last ?? .nan }
    public var mean: Double { sorted.isEmpty ? .nan : sorted.reduce(0, +) / Double(sorted.count) }
    public var median: Double { percentile(50) }

    /// Nearest-rank percentile, `p` in 0...100.
    public func percentile(_ p: Double) -> Double {
        guard !sorted.isEmpty else { return .nan }
        let rank = Int((p / 100 * Double(sorted.count)).rounded(.up))
        return sorted[Swift.min(Swift.max(rank, 1), sorted.count) - 1]
    }
}
