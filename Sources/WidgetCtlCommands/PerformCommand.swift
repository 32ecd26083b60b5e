import ArgumentParser
import Foundation
import WidgetCore
import WidgetProtocol

struct PerformCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "perform",
        abstract: "Run ACTION of the entry instance ID shows (a button tap): the provider performs it, then the instance reloads.")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The instance whose entry offers the action.", completion: Completions.instances) var id: String
    @Argument(help: "The action's id in the entry (see `timeline ID`).") var action: String

    func run() throws {
        let result = try global.call(Methods.Perform.self, PerformParams(instance: id, action: action))
        global.emit(result) {
            if case .object(let fields) = result.result, case .string(let dialog)? = fields["dialog"] {
                Terminal.print(lines: dialog)
            }
            Terminal.print("\(result.action) performed on \(result.instance); reload \(result.reload == "exempt" ? "at once (exempt from the budget)" : "budgeted (action-reloads-per-minute reached)")")
        }
    }
}
