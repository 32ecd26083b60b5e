import Foundation
import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle
import Synchronization
import WidgetCore
import WidgetProtocol

/// The connections open now, so a shutdown can close them.
final class ConnectionRegistry: Sendable {
    private let channels = Mutex<[ObjectIdentifier: any Channel]>([:])

    func add(_ channel: any Channel) {
        let key = ObjectIdentifier(channel)
        channels.withLock { $0[key] = channel }
        channel.closeFuture.whenComplete { _ in
            _ = self.channels.withLock { $0.removeValue(forKey: key) }
        }
    }

    func all() -> [any Channel] {
        channels.withLock { Array($0.values) }
    }
}
