/// The keys one object of a descriptor may hold. A key outside them is refused, naming the
/// nearest known key: an optional key misspelled would otherwise read as absent, and its
/// default would be used without a word.
struct KnownKeys {
    let keys: [String]

    init(_ keys: String...) {
        self.keys = keys
    }

    /// The first unknown key of `object` (in sorted order, so the message is the same on every
    /// run), as a problem at `field` (the object's own path; "" for the top level).
    func check(
        _ object: [String: JSONValue], at field: String, fail: (String, String) -> DescriptorProblem
    ) throws(DescriptorProblem) {
        for key in object.keys.sorted() where !keys.contains(key) {
            let path = field + JSONPath.member(key)
            if let near = nearest(to: key) { throw fail(path, "unknown key; did you mean \"\(near)\"?") }
            throw fail(path, "unknown key (known: \(keys.joined(separator: ", ")))")
        }
    }

    /// The known key fewest edits away, when it is close enough to be a slip of the hand.
    func nearest(to key: String) -> String? {
        var best: (key: String, distance: Int)?
        for known in keys {
            let distance = Self.editDistance(key.lowercased(), known.lowercased())
            if distance < best?.distance ?? .max { best = (known, distance) }
        }
        guard let best, best.distance <= max(1, min(3, best.key.count / 3)) else { return nil }
        return best.key
    }

    /// Levenshtein distance over characters, with a swap of two neighbours counting as one edit.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var rows = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { rows[i][0] = i }
        for j in 0...b.count { rows[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var distance = min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    distance = min(distance, rows[i - 2][j - 2] + 1)
                }
                rows[i][j] = distance
            }
        }
        return rows[a.count][b.count]
    }
}

/// Paths into a JSON document as messages print them: `$.provider.exec[0]`.
enum JSONPath {
    /// `.name` after a path, or `["odd key"]` for a key that is not a plain name.
    static func member(_ key: String) -> String {
        let plain = !key.isEmpty && key.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "_" || scalar == "-")
        }
        if plain { return "." + key }
        var text = JSONText()
        text.string(key)
        return "[" + text.text + "]"
    }
}
