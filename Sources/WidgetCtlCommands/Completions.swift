import ArgumentParser
import WidgetCore
import WidgetProtocol
import WidgetdClient

/// Shell completion of the values widgetctl's arguments name: families from the list every
/// widget knows, and kinds, stack names and instance ids asked of the running daemon (nothing
/// when it cannot be reached within a second, so a TAB never hangs the shell).
enum Completions {
    static let families = CompletionKind.list(WidgetFamily.allCases.map(\.rawValue))

    static let kinds = CompletionKind.custom { words, _, prefix in
        ask(words, prefix) { try $0.call(Methods.Widgets.self).widgets.map(\.kind) }
    }

    static let stacks = CompletionKind.custom { words, _, prefix in
        ask(words, prefix) { try $0.call(Methods.StackList.self).map(\.name) }
    }

    static let instances = CompletionKind.custom { words, _, prefix in
        ask(words, prefix) { try $0.call(Methods.List.self).map(\.id) }
    }

    /// The socket the command line names (`--socket PATH` or `--socket=PATH`), else the default.
    static func socket(in words: [String]) -> String {
        for (index, word) in words.enumerated() {
            if word == "--socket", index + 1 < words.count { return words[index + 1] }
            if word.hasPrefix("--socket=") { return String(word.dropFirst("--socket=".count)) }
        }
        return SocketLocation.defaultPath()
    }

    private static func ask(
        _ words: [String], _ prefix: String, _ names: (WidgetdConnection) throws -> [String]
    ) -> [String] {
        guard let connection = try? WidgetdConnection(path: socket(in: words)) else { return [] }
        connection.limitReads(to: 1)
        return ((try? names(connection)) ?? []).filter { $0.hasPrefix(prefix) }.sorted()
    }
}
