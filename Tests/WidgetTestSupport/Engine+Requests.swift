import Foundation
import NIOCore
import WidgetCore
import WidgetProtocol
@testable import WidgetDaemon

extension Engine {
    /// One request line answered without a connection.
    func handle(_ line: Data, caller: PeerCredentials) async -> Data? {
        await withCheckedContinuation { continuation in
            serve(ByteBuffer(bytes: line), caller: caller, connection: nil) { answer in
                continuation.resume(returning: answer.map { Data($0.readableBytesView) })
            }
        }
    }

    func run<T: Sendable>(_ body: @Sendable (isolated Engine) -> T) -> T {
        body(self)
    }
}
