/// The `RandomNumber` intent of random-number.json. Xcode would generate `RandomNumberIntent`
/// from an intent definition; here it is written by hand, one property per parameter.
/// Parameters hidden by `showIf` are absent from the configuration, hence the optionals.
struct RandomNumberIntent: Decodable, Sendable {
    var maxNumber: Int?
    var useCustomRange: Bool?
    /// The id of the chosen `CustomRange` (an entity parameter holds the option's id).
    var customRange: String?
}
