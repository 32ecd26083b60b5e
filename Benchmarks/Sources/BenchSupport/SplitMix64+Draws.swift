import WidgetCore

/// The draws the workloads make from the core's seeded generator, so that every run measures
/// the same sequence.
extension SplitMix64 {
    /// Uniform in 0..<bound (bound > 0); the modulo bias is irrelevant at these sizes.
    public mutating func below(_ bound: UInt64) -> UInt64 { next() % bound }

    /// Uniform in [0, 1).
    public mutating func unit() -> Double { Double(next() >> 11) * 0x1p-53 }
}
