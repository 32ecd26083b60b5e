import Foundation
import NIOCore
import WidgetCore
import WidgetProtocol

/// Where a batch's answer goes while it is worked: a control connection writes each part as
/// it comes (they make one line), and holds the next slice back while its peer has not taken
/// what is pending. Both are called on the engine's loop.
struct BatchOutput: Sendable {
    /// Writes the next part of the answer line; `end` ends the line.
    var write: @Sendable (_ part: ByteBuffer, _ end: Bool) -> Void
    /// Calls the closure once the peer can take more: at once when it can, or when it is gone.
    var whenWritable: @Sendable (_ resume: @escaping @Sendable () -> Void) -> Void
}
