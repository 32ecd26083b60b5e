extension Figure {
    /// A figure measured as alternating pairs of runs (widgetd, then the reference, again and
    /// again): `widgetd` and `reference` are the medians of each side's values, and `ratio` is
    /// the median of the pairs' own ratios, because the two runs of a pair share what the
    /// shared machine was doing at the time, and the ratio cancels much of it. `met` is
    /// judged on that ratio.
    public init(id: String, figure: String, pairs: [Pair], unit: String, target: String, notes: String = "") {
        let ratio = pairs.isEmpty ? nil : median(pairs.map(\.ratio))
        self.init(
            id: id, figure: figure, widgetd: median(pairs.map(\.widgetd)), reference: median(pairs.map(\.reference)),
            unit: unit, ratio: ratio, target: target,
            met: Figure.evaluate(target: target, widgetd: median(pairs.map(\.widgetd)), ratio: ratio), notes: notes,
            pairs: pairs)
    }
}

/// The median of the finite values (the mean of the middle two for an even count; NaN when
/// there are none).
public func median(_ values: [Double]) -> Double {
    let sorted = values.filter(\.isFinite).sorted()
    guard !sorted.isEmpty else { return .nan }
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}
