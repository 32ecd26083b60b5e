/// A bus thread could not be set up.
struct BusThreadError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
