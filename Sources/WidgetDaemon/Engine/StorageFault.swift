import Foundation

/// A write that failed: its short cause (logged once per cause) and its message.
struct StorageFault {
    var cause: String
    var message: String
}
