/// Every request of one run, encoded before it starts: their bytes back to back and where
/// each begins. Encoding costs the load generator nothing during the run, and the same for
/// either server, so what the run measures is sending, waiting and reading answers.
struct RequestBatch {
    /// The number of the first request: request `i` of the batch is number `first + i`, which
    /// is its JSON-RPC id, and what keeps donation ids and Redis members unique across runs.
    let first: Int
    private(set) var bytes: [UInt8] = []
    /// `count + 1` offsets: request `i` is `bytes[starts[i] ..< starts[i + 1]]`.
    private(set) var starts: [Int] = []

    init(first: Int, count: Int, encode: (Int, inout [UInt8]) -> Void) {
        self.first = first
        starts.reserveCapacity(count + 1)
        for number in first..<(first + count) {
            starts.append(bytes.count)
            encode(number, &bytes)
        }
        starts.append(bytes.count)
    }

    var count: Int { starts.count - 1 }
}

/// Appends the decimal digits of a non-negative number.
func appendDecimal(_ value: Int, to buffer: inout [UInt8]) {
    precondition(value >= 0)
    if value == 0 {
        buffer.append(UInt8(ascii: "0"))
        return
    }
    let start = buffer.count
    var rest = value
    while rest > 0 {
        buffer.append(UInt8(ascii: "0") + UInt8(rest % 10))
        rest /= 10
    }
    buffer[start...].reverse()
}
