import Glibc

/// One event of an inotify read: the watch it came from, what happened, and the name of the
/// entry it concerns (nil for an event on the watched folder itself).
struct InotifyEvent {
    var watch: CInt
    var mask: UInt32
    var name: String?

    func has(_ flag: Int32) -> Bool { mask & UInt32(flag) != 0 }

    /// The events in the first `count` bytes of `buffer`, as one read(2) of an inotify
    /// descriptor returns them.
    static func parse(_ buffer: UnsafeMutableRawPointer, count: Int) -> [InotifyEvent] {
        var events: [InotifyEvent] = []
        var offset = 0
        let header = MemoryLayout<inotify_event>.size
        while offset + header <= count {
            let event = buffer.load(fromByteOffset: offset, as: inotify_event.self)
            var name: String?
            if event.len > 0 {
                // The name is NUL-padded to the length the kernel reports.
                name = String(cString: buffer.advanced(by: offset + header).assumingMemoryBound(to: CChar.self))
            }
            events.append(InotifyEvent(watch: event.wd, mask: event.mask, name: name))
            offset += header + Int(event.len)
        }
        return events
    }
}
