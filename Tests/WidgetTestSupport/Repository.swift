import Foundation

/// The repository's checkout, found from this file's path, so tests read the shipped files
/// (examples, configuration, docs, scripts) as they are in the tree.
enum Repository {
    static let root: String = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // WidgetTestSupport
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent().path

    static var url: URL { URL(fileURLWithPath: root) }
}
