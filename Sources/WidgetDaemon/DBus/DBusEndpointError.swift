/// The bus thread could not be set up.
struct DBusEndpointError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
