import NIOCore

/// A line read off a connection, or word that the peer sent more than the limit without a
/// newline (after which the connection is answered and closed).
enum Frame: Sendable {
    case line(ByteBuffer)
    case tooLong
}

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

    /// Appends the lines `buffer` completes to `frames`.
    mutating func split(_ buffer: ByteBuffer, into frames: inout CircularBuffer<Frame>) {
        guard !overflowed else { return }
        var buffer = buffer
        if var partial = self.partial {
            self.partial = nil
            partial.writeBuffer(&buffer)
            buffer = partial
        }
        while let newline = buffer.readableBytesView.firstIndex(of: UInt8(ascii: "\n")) {
            let length = newline - buffer.readerIndex
            guard length <= limit else { return overflow(&frames) }
            var line = buffer.readSlice(length: length)!
            buffer.moveReaderIndex(forwardBy: 1)
            if line.readableBytesView.last == UInt8(ascii: "\r") { line.moveWriterIndex(to: line.writerIndex - 1) }
            frames.append(.line(line))
        }
        guard buffer.readableBytes > 0 else { return }
        guard buffer.readableBytes <= limit else { return overflow(&frames) }
        // Kept as a copy of its own: the read buffer it lies in may be large.
        var rest = ByteBufferAllocator().buffer(capacity: max(buffer.readableBytes, 512))
        rest.writeBuffer(&buffer)
        partial = rest
    }

    /// The peer closed its writing side: a last line without its newline still counts.
    mutating func finish(into frames: inout CircularBuffer<Frame>) {
        guard !overflowed, let partial, partial.readableBytes > 0 else { return }
        self.partial = nil
        frames.append(.line(partial))
    }

    private mutating func overflow(_ frames: inout CircularBuffer<Frame>) {
        overflowed = true
        partial = nil
        frames.append(.tooLong)
    }
}
