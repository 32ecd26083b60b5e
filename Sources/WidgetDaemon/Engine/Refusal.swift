import Foundation
import Logging
import NIOCore
import WidgetCore
import WidgetProtocol
import WidgetStore

/// Why an attempt did not happen.
enum Refusal: CustomStringConvertible {
    /// The state refused it (validation, a limit, an unknown name): nothing changed.
    case refused(RPCError)
    /// The store could not commit it: nothing changed.
    case notStored(any Error)

    /// The answer for the caller.
    var error: RPCError {
        switch self {
        case .refused(let error): error
        case .notStored(let error): .storageFailure("\(error)")
        }
    }

    var description: String {
        switch self {
        case .refused(let error): error.message
        case .notStored(let error): "\(error)"
        }
    }
}
