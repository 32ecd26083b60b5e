import Foundation

extension DaemonFixture {
    /// The content of the entry `widgetctl timeline` shows as current for `id`, when it is text.
    func shownContent(_ id: String) -> String? {
        (ctl("--json", "timeline", id).object["currentEntry"] as? [String: Any])?["content"] as? String
    }

    /// For the scripted providers that answer well while the file `good-NAME` is in the
    /// fixture's folder and misbehave otherwise: makes `name` answer well or not.
    func setProviderGood(_ good: Bool, _ name: String) {
        let path = directory + "/good-" + name
        if good {
            _ = FileManager.default.createFile(atPath: path, contents: Data())
        } else {
            try? FileManager.default.removeItem(atPath: path)
        }
    }
}
