import Foundation

/// A file named on the command line, `-` for standard input.
enum InputFile {
    /// Its whole contents.
    static func read(_ path: String) throws -> Data {
        if path == "-" { return FileHandle.standardInput.readDataToEndOfFile() }
        guard let contents = FileManager.default.contents(atPath: path) else { throw CtlFailure.usage("cannot read \(path)") }
        return contents
    }
}
