/// A fixture's failure, saying what it waited for or could not do.
struct FixtureError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
