import ArgumentParser
import Foundation
import WidgetCore
import WidgetProtocol
import WidgetdClient

/// `widgetctl batch FILE`: several calls in one JSON-RPC 2.0 batch, one round trip.
struct BatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "batch", abstract: "Send several calls as one JSON-RPC batch and print each answer.",
        discussion: """
            FILE (or - for stdin) holds a JSON array of calls: \
            [{"method": "visible", "params": {"instances": ["a1b2c3d4"]}}, {"method": "stack.show", "params": {"name": "home"}}]. \
            Only "method" is required. Every call is answered unless it has "notification": true \
            (then it is sent without an id and the daemon answers nothing, not even an error). \
            A call may carry its own "id" (an integer or a string, unique in the file); \
            the others get one assigned. Without --json: one line per call, in file order, \
            "ID METHOD: RESULT" or "ID METHOD: error CODE: MESSAGE"; with --json: the daemon's answer array \
            as it came ([] when every call was a notification). Exit status 1 when any call failed.
            """)
    @OptionGroup var global: GlobalOptions
    @Argument(help: "JSON array of calls, or - for stdin.") var file: String

    func run() throws {
        let data = try InputFile.read(file)
        let calls: [BatchCall]
        do {
            calls = try BatchFile.calls(from: data)
        } catch {
            throw CtlFailure.usage("\(file == "-" ? "stdin" : file): \(error)")
        }
        let connection = try global.connect()
        let reply: BatchReply
        do {
            reply = try connection.sendBatch(calls)
        } catch {
            throw CtlFailure(error)
        }
        if global.json {
            print(reply.line.map { String(decoding: $0, as: UTF8.self) } ?? "[]")
        } else {
            for (call, (id, answer)) in zip(calls, zip(reply.ids, reply.answers)) {
                Terminal.print("\(id.map { "\($0)" } ?? "-") \(call.method): \(Self.text(answer))")
            }
        }
        let failed = reply.answers.compactMap(\.error)
        if let first = failed.first {
            throw CtlFailure(status: 1, message: "\(failed.count) of \(calls.count) calls failed; the first: \(first.message)")
        }
    }

    static func text(_ answer: BatchAnswer) -> String {
        switch answer {
        case .notification: "notification, no answer"
        case .error(let error): "error \(error.code): \(error.message)"
        case .result(let line):
            (try? WidgetJSON.decoder.decode(RPCResultBox<JSONValue>.self, from: line).result.compactText)
                ?? String(decoding: line, as: UTF8.self)
        }
    }
}
