import Glibc
import NIOCore

/// Splits what a connection reads into lines at `\n` (a `\r` before it is dropped), holding
/// at most `limit` bytes of a line not yet ended. Lines are slices of the buffers read, not
/// copies.
struct LineSplitter {
    let limit: Int
    /// The start of a line whose newline has not come yet.
    private var partial: ByteBuffer?
    private var overflowed = false

    init(limit: Int) {
        self.limit = limit
    }

    /// Whether the start of a line is held, waiting for its newline.
    var holdsPartial: Bool { partial != nil }

    /// Appends the lines `buffer` completes to `frames`, and returns the bytes of those lines.
    @discardableResult
    mutating func split(_ buffer: ByteBuffer, into frames: inout CircularBuffer<Frame>) -> Int {
        guard !overflowed else { return 0 }
        var appended = 0
        var buffer = buffer
        if var partial = self.partial {
            // Only the new bytes can hold the newline that ends the held line: a long line
            // read in many pieces is not searched again from its start each time.
            self.partial = nil
            guard Self.newline(in: buffer) != nil else {
                guard partial.readableBytes + buffer.readableBytes <= limit else {
                    overflow(&frames)
                    return 0
                }
                partial.writeBuffer(&buffer)
                self.partial = partial
                return 0
            }
            partial.writeBuffer(&buffer)
            buffer = partial
        }
        while let newline = Self.newline(in: buffer) {
            let length = newline - buffer.readerIndex
            guard length <= limit else {
                overflow(&frames)
                return appended
            }
            var line = buffer.readSlice(length: length)!
            buffer.moveReaderIndex(forwardBy: 1)
            if line.readableBytesView.last == UInt8(ascii: "\r") { line.moveWriterIndex(to: line.writerIndex - 1) }
            appended += line.readableBytes
            frames.append(.line(line))
        }
        guard buffer.readableBytes > 0 else { return appended }
        guard buffer.readableBytes <= limit else {
            overflow(&frames)
            return appended
        }
        // Kept as a copy of its own: the read buffer it lies in may be large.
        var rest = ByteBufferAllocator().buffer(capacity: max(buffer.readableBytes, 512))
        rest.writeBuffer(&buffer)
        partial = rest
        return appended
    }

    /// The peer closed its writing side: a last line without its newline still counts. Returns
    /// its bytes.
    @discardableResult
    mutating func finish(into frames: inout CircularBuffer<Frame>) -> Int {
        guard !overflowed, let partial, partial.readableBytes > 0 else { return 0 }
        self.partial = nil
        frames.append(.line(partial))
        return partial.readableBytes
    }

    /// Where the first newline of `buffer` is (an index of the buffer), by `memchr`.
    private static func newline(in buffer: ByteBuffer) -> Int? {
        buffer.withUnsafeReadableBytes { bytes -> Int? in
            guard let base = bytes.baseAddress, let found = memchr(base, 0x0A, bytes.count) else { return nil }
            return buffer.readerIndex + (UnsafeRawPointer(found) - base)
        }
    }

    private mutating func overflow(_ frames: inout CircularBuffer<Frame>) {
        overflowed = true
        partial = nil
        frames.append(.tooLong)
    }
}
