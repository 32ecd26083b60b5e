import ArgumentParser
import WidgetCore
import WidgetProtocol

struct ClockCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "clock", abstract: "Show or move the virtual clock (refused on the real clock).",
        subcommands: [Show.self, Advance.self, Set.self], defaultSubcommand: Show.self)

    static func report(_ info: ClockInfo, _ global: GlobalOptions) {
        global.emit(info) {
            var line = "\(info.mode) clock at \(WidgetCtlCommands.Show.date(info.now))"
            if let processed = info.processed { line += " (\(processed) events processed)" }
            Terminal.print(line)
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "show", abstract: "The daemon's clock.")
        @OptionGroup var global: GlobalOptions
        func run() throws { ClockCommand.report(try global.call(Methods.Clock.self), global) }
    }

    struct Advance: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "advance", abstract: "Move the virtual clock forward, processing everything due in between.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "Like 90s, 10m, 2h, 1d.") var duration: String
        @Flag(help: "Pass the time as in a suspend: nothing due runs until the resume (logind's PrepareForSleep(false) or the next clock move).")
        var asleep = false

        /// `clock advance -1h` would reach the parser as the flags `-1 -h`, and `-h` is help:
        /// a signed duration is refused before parsing, and `+1h` the same way after it.
        static func signedDuration(in arguments: [String]) -> CtlFailure? {
            guard let advance = arguments.firstIndex(of: "advance"), arguments[..<advance].contains("clock") else { return nil }
            return arguments[(advance + 1)...].first(where: isSigned).map(refusal)
        }

        static func isSigned(_ text: String) -> Bool {
            guard let sign = text.first, sign == "-" || sign == "+" else { return false }
            return DurationText.seconds(String(text.dropFirst())) != nil
        }

        static func refusal(_ text: String) -> CtlFailure {
            CtlFailure.usage(
                "clock advance: '\(text)' has a sign; a duration counts forward, like 90s, 10m, 2h or 1d "
                    + "(to move the virtual clock back, use 'widgetctl clock set DATE')")
        }

        func run() throws {
            if Self.isSigned(duration) { throw Self.refusal(duration) }
            guard let seconds = DurationText.seconds(duration) else {
                throw CtlFailure.usage("'\(duration)' is not a duration like 90s, 10m, 2h or 1d")
            }
            ClockCommand.report(try global.call(Methods.ClockAdvance.self, ClockAdvanceParams(seconds: seconds, asleep: asleep ? true : nil)), global)
        }
    }

    struct Set: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "set", abstract: "Set the virtual clock to an instant.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "ISO 8601 with a zone, e.g. 2026-01-05T08:00:00Z.") var date: String

        func run() throws {
            guard let instant = ISO8601.date(from: date) else {
                throw CtlFailure.usage("'\(date)' is not an ISO 8601 date with a zone")
            }
            ClockCommand.report(try global.call(Methods.ClockSet.self, ClockSetParams(date: instant)), global)
        }
    }
}
