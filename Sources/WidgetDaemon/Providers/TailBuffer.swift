/// The last `capacity` bytes of a stream, in storage allocated once: what a provider writes
/// to stderr is kept this way, so however much it writes, the daemon holds only the tail.
struct TailBuffer {
    let capacity: Int
    private var storage: [UInt8]
    /// Where the next byte goes; once the storage is full, also where the oldest kept one is.
    private var end = 0
    private var isFull = false
    /// Bytes written in all, kept or not.
    private(set) var total = 0

    init(capacity: Int) {
        precondition(capacity > 0)
        self.capacity = capacity
        storage = [UInt8](repeating: 0, count: capacity)
    }

    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        total += bytes.count
        // Of a write longer than the whole buffer only its own tail can stay.
        var rest = UnsafeRawBufferPointer(rebasing: bytes[max(0, bytes.count - capacity)...])
        while !rest.isEmpty {
            let count = min(rest.count, capacity - end)
            let source = UnsafeRawBufferPointer(rebasing: rest[..<count])
            storage.withUnsafeMutableBytes { target in
                UnsafeMutableRawBufferPointer(rebasing: target[end..<(end + count)]).copyMemory(from: source)
            }
            rest = UnsafeRawBufferPointer(rebasing: rest[count...])
            end += count
            if end == capacity {
                end = 0
                isFull = true
            }
        }
    }

    mutating func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { append($0) }
    }

    /// The bytes kept, oldest first.
    var bytes: [UInt8] {
        isFull ? Array(storage[end...] + storage[..<end]) : Array(storage[..<end])
    }
}
