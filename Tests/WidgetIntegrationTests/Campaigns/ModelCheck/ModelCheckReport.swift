import Foundation

/// How much the model check runs: by default four seeds of 2,500 operations (10,000 in all).
/// `WIDGETD_MODEL_SEED` runs that one seed (a failure prints it); `WIDGETD_MODEL_OPS` sets the
/// operations per seed.
struct ModelCheckSize {
    var seeds: [UInt64] = [12_001, 12_002, 12_003, 12_004]
    var operations = 2_500

    static func fromEnvironment() -> ModelCheckSize {
        let environment = ProcessInfo.processInfo.environment
        var size = ModelCheckSize()
        if let seed = environment["WIDGETD_MODEL_SEED"].flatMap(UInt64.init) { size.seeds = [seed] }
        if let operations = environment["WIDGETD_MODEL_OPS"].flatMap(Int.init), operations > 0 { size.operations = operations }
        return size
    }
}

/// The first step where the daemon and the model disagree, with what it takes to replay it.
struct ModelMismatch: Error, CustomStringConvertible {
    var seed: UInt64
    var step: Int
    var operations: Int
    var history: [String]
    var differences: [String]
    var explanations: [String]

    var description: String {
        """
        model check: the daemon and the model disagree after step \(step) of seed \(seed)
        replay: WIDGETD_MODEL_SEED=\(seed) WIDGETD_MODEL_OPS=\(operations) swift test --skip-build --filter Integration.ModelCheck
        last operations (step @ virtual time: operation):
        \(history.joined(separator: "\n"))
        differences:
        \(differences.joined(separator: "\n"))
        \(explanations.joined(separator: "\n"))
        """
    }
}
