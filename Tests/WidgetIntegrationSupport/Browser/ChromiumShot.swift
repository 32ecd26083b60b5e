import Foundation

/// A picture rendered by Debian's headless Chromium to a PNG, under a deadline.
enum ChromiumShot {
    static let program = "/usr/bin/chromium"
    static let deadline: Double = 120

    static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: program) }

    /// Renders `file` (an SVG or a page) into `png` at `width` × `height`. Headless Chromium
    /// keeps part of the window for itself, so the window is made taller than the picture
    /// and the PNG cut at the same size; `--no-sandbox` because the tests may run as root.
    static func render(_ file: String, to png: String, width: Int, height: Int, profile: String) -> DaemonFixture.Result {
        ProgramRun.run(
            program,
            [
                "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
                "--user-data-dir=" + profile, "--screenshot=" + png, "--window-size=\(width),\(height)",
                URL(fileURLWithPath: file).absoluteString,
            ],
            deadline: deadline)
    }

    /// Width and height from a PNG's IHDR chunk; nil when `data` is not a PNG.
    static func size(ofPNG data: Data) -> (width: Int, height: Int)? {
        let bytes = [UInt8](data.prefix(24))
        guard bytes.count == 24, bytes[0..<8] == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A],
            bytes[12..<16] == [0x49, 0x48, 0x44, 0x52]
        else { return nil }
        func word(_ at: Int) -> Int { bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        return (word(16), word(20))
    }
}
