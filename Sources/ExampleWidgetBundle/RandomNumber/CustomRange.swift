/// A range the user may pick instead of 1...maxNumber. In the tutorial the app stores these
/// and an intent handler reads them from an App Group; here they are fixed, and the id spells
/// the bounds so any "LOW-HIGH" id works.
struct CustomRange: Sendable {
    let id: String
    let display: String
    let minNumber: Int
    let maxNumber: Int

    static let all = [
        CustomRange(id: "1-10", display: "Small (1 to 10)", minNumber: 1, maxNumber: 10),
        CustomRange(id: "1-100", display: "Percent (1 to 100)", minNumber: 1, maxNumber: 100),
        CustomRange(id: "50-150", display: "Around a hundred (50 to 150)", minNumber: 50, maxNumber: 150),
        CustomRange(id: "100-1000", display: "Hundreds (100 to 1000)", minNumber: 100, maxNumber: 1000),
    ]

    /// The known range with this id, else one parsed from "LOW-HIGH".
    static func named(_ id: String) -> CustomRange? {
        if let known = all.first(where: { $0.id == id }) { return known }
        let bounds = id.split(separator: "-", maxSplits: 1).compactMap { Int($0) }
        guard bounds.count == 2, bounds[0] <= bounds[1] else { return nil }
        return CustomRange(id: id, display: id, minNumber: bounds[0], maxNumber: bounds[1])
    }
}
