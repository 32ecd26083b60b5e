import Foundation
import Testing
@testable import WidgetIntegrationSupport

/// The repository's Markdown stands alone: every link is relative, stays inside the
/// repository, names a file that exists and, with a `#fragment`, a heading of that file.
@Suite struct DocLinks {
    @Test func everyMarkdownLinkResolvesInsideTheRepository() throws {
        let root = URL(fileURLWithPath: TestPaths.repository).standardizedFileURL
        let files = MarkdownFiles.all(under: root)
        #expect(files.count >= 10, "expected the README, docs/ and Benchmarks/ pages under \(root.path)")
        var problems: [String] = []
        var checked = 0
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            let name = String(file.path.dropFirst(root.path.count + 1))
            for link in MarkdownLinks.targets(in: text) {
                checked += 1
                if let problem = MarkdownLinks.problem(link, in: file, root: root) {
                    problems.append("\(name):\(link.line): (\(link.target)): \(problem)")
                }
            }
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            where line.contains("shared/reference") {
                problems.append("\(name):\(number + 1): names a file outside the repository")
            }
        }
        #expect(checked > 20, "found only \(checked) links; the link reader is broken")
        #expect(problems.isEmpty, "\(problems.count) broken links:\n\(problems.joined(separator: "\n"))")
    }

    @Test func theCheckerCatchesWhatItShould() throws {
        let root = URL(fileURLWithPath: TestPaths.repository).standardizedFileURL
        let readme = root.appendingPathComponent("README.md")
        let text = """
            [ok](docs/overview.md#rules-in-detail) `[code](nowhere.md)`
            [gone](docs/nowhere.md) [anchor](docs/overview.md#no-such-heading)
            [out](../outside.md) [web](https://example.com/)
            ```
            [fenced](nowhere-either.md)
            ```
            """
        let found = MarkdownLinks.targets(in: text)
        #expect(found.map(\.target) == [
            "docs/overview.md#rules-in-detail", "docs/nowhere.md", "docs/overview.md#no-such-heading",
            "../outside.md", "https://example.com/",
        ])
        let problems = found.map { MarkdownLinks.problem($0, in: readme, root: root) }
        #expect(problems[0] == nil)
        #expect(problems[1] == "no such file")
        #expect(problems[2] == "no heading with anchor #no-such-heading in docs/overview.md")
        #expect(problems[3] == "leaves the repository")
        #expect(problems[4] == "links outside the repository")
    }

    @Test func anchorsFollowHeadingsAsGitHubWritesThem() {
        #expect(MarkdownLinks.anchor("Hardening: what a provider may and may not do")
            == "hardening-what-a-provider-may-and-may-not-do")
        #expect(MarkdownLinks.anchor("Running under systemd: `systemd/`") == "running-under-systemd-systemd")
        #expect(MarkdownLinks.anchor("Writing a provider (exec protocol)") == "writing-a-provider-exec-protocol")
        #expect(MarkdownLinks.anchors(in: "# A\n## A\n```\n# not a heading\n```\n") == ["a", "a-1"])
    }
}

/// Every Markdown file of the repository, leaving out hidden and build folders.
enum MarkdownFiles {
    static func all(under root: URL) -> [URL] {
        let skipped: Set<String> = ["dist", "node_modules"]
        guard let walker = FileManager.default.enumerator(
            at: root, includingPropertiesForKeys: [.isDirectoryKey], options: [.skipsHiddenFiles])
        else { return [] }
        var files: [URL] = []
        for case let url as URL in walker {
            let name = url.lastPathComponent
            if (try? url.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) == true {
                if skipped.contains(name) || name.hasPrefix(".build") { walker.skipDescendants() }
            } else if name.hasSuffix(".md") {
                files.append(url.standardizedFileURL)
            }
        }
        return files.sorted { $0.path < $1.path }
    }
}

/// Links as Markdown writes them (`[text](target)`, `![alt](target)`, `[label]: target`),
/// outside code, and whether each one lands.
enum MarkdownLinks {
    struct Link: Equatable { var target: String; var line: Int }

    static func targets(in text: String) -> [Link] {
        var links: [Link] = []
        for (number, line) in proseLines(text) {
            let chars = Array(withoutCodeSpans(line))
            var index = 0
            while index < chars.count {
                if chars[index] == "]", index + 1 < chars.count, chars[index + 1] == "(",
                   let close = chars[(index + 2)...].firstIndex(of: ")") {
                    let inside = String(chars[(index + 2)..<close]).split(separator: " ").first.map(String.init) ?? ""
                    links.append(Link(target: inside.trimmingCharacters(in: CharacterSet(charactersIn: "<>")), line: number))
                    index = close
                }
                index += 1
            }
            let trimmed = line.drop { $0 == " " }
            if trimmed.hasPrefix("["), let colon = trimmed.range(of: "]: ") {
                let target = trimmed[colon.upperBound...].split(separator: " ").first.map(String.init) ?? ""
                links.append(Link(target: target, line: number))
            }
        }
        return links
    }

    /// What is wrong with `link` in `file`, or nil when it lands.
    static func problem(_ link: Link, in file: URL, root: URL) -> String? {
        let target = link.target
        if target.contains("://") || target.hasPrefix("mailto:") { return "links outside the repository" }
        if target.hasPrefix("/") { return "absolute path: links must be relative" }
        let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
        let path = String(parts[0])
        let fragment = parts.count > 1 ? String(parts[1]) : nil
        let destination = path.isEmpty
            ? file
            : file.deletingLastPathComponent().appendingPathComponent(path.removingPercentEncoding ?? path).standardizedFileURL
        guard destination.path == root.path || destination.path.hasPrefix(root.path + "/") else {
            return "leaves the repository"
        }
        guard FileManager.default.fileExists(atPath: destination.path) else { return "no such file" }
        guard let fragment, !fragment.isEmpty, destination.pathExtension == "md" else { return nil }
        let text = (try? String(contentsOf: destination, encoding: .utf8)) ?? ""
        guard anchors(in: text).contains(fragment) else {
            let name = String(destination.path.dropFirst(root.path.count + 1))
            return "no heading with anchor #\(fragment) in \(name)"
        }
        return nil
    }

    /// The anchors GitHub gives a file's headings, with `-1`, `-2` for repeats.
    static func anchors(in text: String) -> [String] {
        var seen: [String: Int] = [:]
        var result: [String] = []
        for (_, line) in proseLines(text) where line.hasPrefix("#") {
            let title = line.drop { $0 == "#" }
            guard title.first == " " else { continue }
            let base = anchor(String(title))
            let count = seen[base, default: 0]
            seen[base] = count + 1
            result.append(count == 0 ? base : "\(base)-\(count)")
        }
        return result
    }

    static func anchor(_ heading: String) -> String {
        var slug = ""
        for character in heading.trimmingCharacters(in: .whitespaces).lowercased() {
            if character.isLetter || character.isNumber || character == "-" || character == "_" {
                slug.append(character)
            } else if character == " " {
                slug.append("-")
            }
        }
        return slug
    }

    /// Lines outside fenced code blocks, numbered from 1.
    private static func proseLines(_ text: String) -> [(Int, Substring)] {
        var inFence = false
        var lines: [(Int, Substring)] = []
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if line.drop(while: { $0 == " " }).hasPrefix("```") { inFence.toggle(); continue }
            if !inFence { lines.append((number + 1, line)) }
        }
        return lines
    }

    private static func withoutCodeSpans(_ line: Substring) -> String {
        var result = ""
        var inCode = false
        for character in line {
            if character == "`" { inCode.toggle(); continue }
            if !inCode { result.append(character) }
        }
        return result
    }
}
