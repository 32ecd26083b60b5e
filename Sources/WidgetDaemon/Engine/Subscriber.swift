import Foundation
import NIOCore
import Synchronization
import WidgetCore
import WidgetProtocol

/// A connection that streams events (`subscribe`): `deliver` hands it one event line.
final class Subscriber: Sendable {
    /// Events a connection holds for a host that does not read; beyond it the oldest go.
    static let buffer = 1000

    /// Who subscribed, for what it may see of donations; nil: the daemon itself (the remote
    /// publisher), which sees everything.
    let caller: PeerCredentials?
    let deliver: @Sendable (ByteBuffer) -> Void

    init(caller: PeerCredentials? = nil, deliver: @escaping @Sendable (ByteBuffer) -> Void) {
        self.caller = caller
        self.deliver = deliver
    }
}
