import Glibc
import NIOCore
import WidgetCore

struct CredentialError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
