/// A kind's template output kept inside its card. Served in the page, the HTML of every card is
/// parsed as one document, so a template that leaves an element open would take the rest of the
/// page into its card, and a stray end tag (`</div>`, `</main>`) would close the page's own
/// elements and put later cards outside the place the script redraws. Each end tag is kept only
/// when it closes an element the template opened; what the template leaves open is closed at
/// its end. Comments, raw text (`<style>`, `<script>`, ...) and quoted attribute values are
/// passed through unread, and markup the template writes correctly is left byte for byte.
enum HTMLFragment {
    static let void: Set<String> = ["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source", "track", "wbr"]
    static let rawText: Set<String> = ["script", "style", "textarea", "title", "xmp", "iframe", "noembed", "noframes", "noscript"]
    /// Elements the parser closes by itself at the card's own end tag: closing them here
    /// would add an empty one where the parser had closed it already.
    static let closedByParent: Set<String> = ["p", "li", "dt", "dd", "option", "optgroup", "rb", "rp", "rt", "rtc"]

    static func contained(_ html: String) -> String {
        let bytes = Array(html.utf8)
        guard bytes.contains(UInt8(ascii: "<")) else { return html }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 32)
        var open: [String] = []
        var index = 0
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "<") else {
                out.append(bytes[index])
                index += 1
                continue
            }
            if starts(bytes, at: index, with: "<!--") {
                // `<!-->` and `<!--->` are whole (empty) comments; one left open would hide the
                // rest of the page.
                let body = index + 4
                let empty = starts(bytes, at: min(body, bytes.count), with: ">") ? body + 1
                    : starts(bytes, at: min(body, bytes.count), with: "->") ? body + 2 : nil
                let end = empty ?? find(bytes, "-->", from: body).map { $0 + 3 }
                out += bytes[index..<(end ?? bytes.count)]
                if end == nil { out += Array("-->".utf8) }
                index = end ?? bytes.count
                continue
            }
            let isEnd = index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "/")
            let nameStart = index + (isEnd ? 2 : 1)
            var nameEnd = nameStart
            while nameEnd < bytes.count, isNameByte(bytes[nameEnd]) { nameEnd += 1 }
            let isTag = nameEnd > nameStart && isLetter(bytes[nameStart])
            let next = index + 1 < bytes.count ? bytes[index + 1] : 0
            guard isTag || next == UInt8(ascii: "!") || next == UInt8(ascii: "?") || isEnd else {
                out.append(bytes[index])  // a lone `<`, read as text
                index += 1
                continue
            }
            // `<!x>`, `<?x>` and `</ x>` are comments to the parser, ending at the first `>`. A
            // tag or comment that never ends would swallow what follows: the rest is text.
            let close = isTag ? tagEnd(bytes, from: nameEnd) : find(bytes, ">", from: index)
            guard let close else {
                for byte in bytes[index...] { if byte == UInt8(ascii: "<") { out += Array("&lt;".utf8) } else { out.append(byte) } }
                index = bytes.count
                continue
            }
            guard isTag else {
                out += bytes[index...close]
                index = close + 1
                continue
            }
            let name = String(decoding: bytes[nameStart..<nameEnd], as: UTF8.self).lowercased()
            let tag = bytes[index...close]
            index = close + 1
            if isEnd {
                // Kept only when it closes what the template opened.
                if let at = open.lastIndex(of: name) {
                    open.removeSubrange(at...)
                    out += tag
                }
                continue
            }
            if name == "plaintext" {
                out += Array("&lt;".utf8) + tag.dropFirst()  // nothing could ever end it
                continue
            }
            out += tag
            let foreign = open.contains("svg") || open.contains("math")
            if void.contains(name) || (foreign && bytes[close - 1] == UInt8(ascii: "/")) { continue }
            if rawText.contains(name) && !foreign {
                let end = findEndTag(bytes, name, from: index)
                out += bytes[index..<(end ?? bytes.count)]
                if let end, let after = find(bytes, ">", from: end) {
                    out += bytes[end...after]
                    index = after + 1
                } else {
                    out += Array("</\(name)>".utf8)
                    index = bytes.count
                }
                continue
            }
            open.append(name)
        }
        for name in open.reversed() where !closedByParent.contains(name) { out += Array("</\(name)>".utf8) }
        return String(decoding: out, as: UTF8.self)
    }

    /// The `>` that ends a tag whose name ends at `from`, past quoted attribute values; nil
    /// when the tag never ends.
    private static func tagEnd(_ bytes: [UInt8], from: Int) -> Int? {
        var index = from
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: ">"):
                return index
            case UInt8(ascii: "="):
                index += 1
                while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 || bytes[index] == 0x0A || bytes[index] == 0x0C || bytes[index] == 0x0D {
                    index += 1
                }
                if index < bytes.count, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") {
                    guard let end = bytes[(index + 1)...].firstIndex(of: bytes[index]) else { return nil }
                    index = end + 1
                }
            default:
                index += 1
            }
        }
        return nil
    }

    /// Where `</name` starts, as a raw text element's content ends (any case, followed by a
    /// space, `/` or `>`).
    private static func findEndTag(_ bytes: [UInt8], _ name: String, from: Int) -> Int? {
        let target = Array("</\(name)".utf8)
        var index = from
        while let at = find(bytes, target, from: index) {
            let after = at + target.count
            let lowered = bytes[at..<after].map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }
            if lowered.elementsEqual(target), after == bytes.count || [0x20, 0x09, 0x0A, 0x0C, 0x0D, 0x2F, 0x3E].contains(bytes[after]) {
                return at
            }
            index = at + 1
        }
        return nil
    }

    /// Where `needle` starts (ASCII letters of any case match `needle`'s), from `from` on.
    private static func find(_ bytes: [UInt8], _ needle: some Collection<UInt8>, from: Int) -> Int? {
        let needle = Array(needle)
        guard !needle.isEmpty, from <= bytes.count - needle.count else { return nil }
        for start in from...(bytes.count - needle.count) {
            var matches = true
            for (offset, byte) in needle.enumerated() {
                var candidate = bytes[start + offset]
                if candidate >= 0x41 && candidate <= 0x5A { candidate += 0x20 }
                var wanted = byte
                if wanted >= 0x41 && wanted <= 0x5A { wanted += 0x20 }
                if candidate != wanted {
                    matches = false
                    break
                }
            }
            if matches { return start }
        }
        return nil
    }

    private static func find(_ bytes: [UInt8], _ needle: String, from: Int) -> Int? {
        find(bytes, Array(needle.utf8), from: from)
    }

    private static func starts(_ bytes: [UInt8], at index: Int, with prefix: String) -> Bool {
        bytes[index...].starts(with: prefix.utf8)
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        isLetter(byte) || (byte >= 0x30 && byte <= 0x39) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ":") || byte == UInt8(ascii: "_")
    }
}
