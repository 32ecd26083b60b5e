import Foundation
import WidgetCore
import WidgetStore

/// What the STATUS= line says.
struct StatusInputs: Equatable {
    var instances: Int
    var kinds: Int
    var stacks: Int
    var nextWake: Date?
    var virtualNow: Date?
    /// A storage fault's short cause, while writes fail.
    var storageFault: String?
}
