import Foundation
import WidgetCore

/// The way widgetctl's human output reaches a terminal: names, errors and other text that
/// came from the daemon (and so from any client or provider) are written with their control
/// characters escaped (`ControlEscaping`: `\n`, `\u{1B}`), so none of them can move the
/// cursor, recolour the terminal or start a line of its own. `--json` output is JSON and
/// goes out as it is.
enum Terminal {
    /// A value put in a line: every control character escaped, newlines too.
    static func text(_ value: String) -> String {
        ControlEscaping.escaped(value)
    }

    /// One line on stdout: whatever it holds stays on one line.
    static func print(_ line: String) {
        Swift.print(ControlEscaping.escaped(line))
    }

    /// Several lines of widgetctl's own layout (or a provider's text of several lines): its
    /// newlines stay, every other control character is escaped. A name put in it should go
    /// through `text` first.
    static func print(lines text: String) {
        Swift.print(ControlEscaping.escapedKeepingNewlines(text))
    }

    /// A message on stderr, as `print(lines:)` does it.
    static func printError(_ text: String) {
        FileHandle.standardError.write(Data((ControlEscaping.escapedKeepingNewlines(text) + "\n").utf8))
    }
}
