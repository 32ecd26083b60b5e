import Foundation
import Testing
@testable import WidgetDaemon

/// A provider's stderr is kept as its last 4 KiB, in a buffer of that size.
@Suite struct ProviderOutputTailTests {
    @Test func keepsTheLastBytesInOrder() {
        var tail = TailBuffer(capacity: 8)
        tail.append(Array("abc".utf8))
        #expect(tail.bytes == Array("abc".utf8))
        tail.append(Array("defgh".utf8))
        #expect(tail.bytes == Array("abcdefgh".utf8))
        tail.append(Array("ij".utf8))
        #expect(tail.bytes == Array("cdefghij".utf8))
        tail.append(Array("0123456789xyz".utf8))
        // Of a write longer than the buffer, its own last bytes.
        #expect(tail.bytes == Array("56789xyz".utf8))
        #expect(tail.total == 3 + 5 + 2 + 13)
    }

    @Test func aWriteLongerThanTheBufferKeepsItsOwnTail() {
        var tail = TailBuffer(capacity: 4096)
        let chunk = [UInt8](repeating: 0, count: 65536)
        for _ in 0..<100 { tail.append(chunk) }
        tail.append(Array("\nlast line\n".utf8))
        #expect(tail.bytes.count == 4096)
        #expect(tail.bytes.suffix(11) == Array("\nlast line\n".utf8)[...])
        #expect(tail.bytes.prefix(4085).allSatisfy { $0 == 0 })
    }

    @Test func aProviderFloodingStderrFailsWithItsLastLine() throws {
        let child = try SpawnedChild.spawn(argv: [
            "/bin/sh", "-c", "cat > /dev/null; head -c 1073741824 /dev/zero >&2; echo 'flood done' >&2; exit 7",
        ])
        let exchange = child.exchange(input: Data("{}".utf8), maxOutput: 1024, deadline: .now + .seconds(120))
        let status = child.wait(until: nil)
        guard case .finished(let output, let errors) = exchange else {
            Issue.record("\(exchange)")
            return
        }
        #expect(output.isEmpty)
        #expect(errors.count == SpawnedChild.errorTailBytes)
        #expect(String(decoding: errors.suffix(11), as: UTF8.self) == "flood done\n")
        guard case .exited(7) = status else {
            Issue.record("\(String(describing: status))")
            return
        }
    }

    @Test func aProviderFloodingStdoutStopsOneBytePastTheLimit() throws {
        let child = try SpawnedChild.spawn(argv: ["/bin/sh", "-c", "cat > /dev/null; head -c 67108864 /dev/zero"])
        let exchange = child.exchange(input: Data("{}".utf8), maxOutput: 100_000, deadline: .now + .seconds(120))
        kill(-child.pid, SIGKILL)
        _ = child.wait(until: nil)
        guard case .outputTooLarge = exchange else {
            Issue.record("\(exchange)")
            return
        }
    }
}
