import Foundation
import NIOCore
import Synchronization
import WidgetCore
import WidgetProtocol

/// `[remote] publish = true`: every event the socket's subscribers get, and each stack's
/// state (retained), published to the broker under `PREFIX/state/`. At every connection the
/// stacks are published whole, since what changed during an outage was not.
final class RemotePublisher: Sendable {
    private let topics: RemoteTopics
    private let inbox: RemoteInbox
    private let session = Mutex<MosquittoSession?>(nil)

    init(topics: RemoteTopics, inbox: RemoteInbox) {
        self.topics = topics
        self.inbox = inbox
    }

    func attach(_ session: MosquittoSession) {
        self.session.withLock { $0 = session }
    }

    /// Every stack's state now, after a (re)connection.
    func connected() {
        Task {
            let stacks = await inbox.stacks()
            for stack in stacks {
                if let publication = topics.publication(for: stack) { publish(publication) }
            }
        }
    }

    /// One event line from the engine's event hub (`Subscriber`).
    func event(_ line: ByteBuffer) {
        guard let notification = try? WidgetJSON.decoder.decode(EventNotification.self, from: Data(line.readableBytesView)) else {
            return
        }
        for publication in topics.publications(for: notification.params) { publish(publication) }
    }

    private func publish(_ publication: RemotePublication) {
        session.withLock { $0 }?.publish(publication)
    }
}
