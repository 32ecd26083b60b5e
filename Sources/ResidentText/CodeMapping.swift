/// One line of /proc/self/maps that maps code from a file: `START-END r-xp OFFSET DEV INODE /path`.
struct CodeMapping: Equatable {
    var start: UInt
    var length: Int

    /// Nil for any mapping but private read-and-execute ones of a file (not `[vdso]`, not data).
    init?(_ line: String) {
        let fields = line.split(separator: " ", omittingEmptySubsequences: true)
        guard fields.count >= 6, fields[1] == "r-xp", fields[5].hasPrefix("/") else { return nil }
        let bounds = fields[0].split(separator: "-")
        guard bounds.count == 2, let start = UInt(bounds[0], radix: 16), let end = UInt(bounds[1], radix: 16), end > start else {
            return nil
        }
        self.start = start
        length = Int(end - start)
    }
}
