import ArgumentParser
import Foundation
import WidgetCore
import WidgetProtocol

struct VisibleCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "visible", abstract: "Report the instances a host shows now (replaces the previous report).")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "Instance ids; none: nothing is visible.", completion: Completions.instances) var ids: [String] = []
    func run() throws {
        let result = try global.call(Methods.Visible.self, VisibleParams(instances: ids))
        global.emit(result) { Terminal.print("visible: \(result.visible.isEmpty ? "none" : result.visible.joined(separator: " "))") }
    }
}

struct StackCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stack", abstract: "Smart Stacks: create, fill, show, swipe, Smart Rotate on/off, list, remove.",
        subcommands: [Create.self, Add.self, ShowStack.self, Swipe.self, SmartRotate.self, ListStacks.self, Remove.self])

    static func report(_ info: StackInfo, _ global: GlobalOptions) {
        global.emit(info) {
            Terminal.print("\(info.name): top \(info.top ?? "-"), Smart Rotate \(info.smartRotate ? "on" : "off")")
            for id in info.instances {
                let marks = [id == info.top ? "top" : nil, id == info.userChoice ? "user's choice" : nil].compactMap { $0 }
                Terminal.print("  \(id)\(marks.isEmpty ? "" : "  (" + marks.joined(separator: ", ") + ")")")
            }
            if let hold = info.holdUntil { Terminal.print("user hold until \(Show.date(hold))") }
        }
    }

    struct Create: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "create", abstract: "Create an empty stack.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The new stack's name.") var name: String
        @Flag(name: .customLong("no-smart-rotate"), help: "Only the user changes the top.") var noSmartRotate = false
        func run() throws {
            StackCommand.report(try global.call(Methods.StackCreate.self, StackCreateParams(name: name, smartRotate: !noSmartRotate)), global)
        }
    }

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "add", abstract: "Append instances to a stack, in order.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The stack.", completion: Completions.stacks) var name: String
        @Argument(help: "Instance ids.", completion: Completions.instances) var ids: [String]
        func run() throws {
            StackCommand.report(try global.call(Methods.StackAdd.self, StackAddParams(name: name, instances: ids)), global)
        }
    }

    struct ShowStack: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "show", abstract: "A stack's instances and top.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The stack.", completion: Completions.stacks) var name: String
        func run() throws { StackCommand.report(try global.call(Methods.StackShow.self, StackNameParams(name: name)), global) }
    }

    struct Swipe: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "swipe", abstract: "The user puts ID on top; Smart Rotate holds off for the user hold.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The stack.", completion: Completions.stacks) var name: String
        @Argument(help: "The instance to put on top.", completion: Completions.instances) var id: String
        func run() throws { StackCommand.report(try global.call(Methods.StackSwipe.self, StackSwipeParams(name: name, instance: id)), global) }
    }

    struct SmartRotate: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "smart-rotate", abstract: "Turn Smart Rotate on or off.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The stack.", completion: Completions.stacks) var name: String
        @Argument(help: "on or off.", completion: .list(["on", "off"])) var state: String
        func validate() throws {
            guard ["on", "off"].contains(state) else { throw ValidationError("say on or off") }
        }
        func run() throws {
            StackCommand.report(try global.call(Methods.StackSmartRotate.self, StackSmartRotateParams(name: name, on: state == "on")), global)
        }
    }

    struct ListStacks: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "Every stack.")
        @OptionGroup var global: GlobalOptions
        func run() throws {
            let stacks = try global.call(Methods.StackList.self)
            global.emit(stacks) {
                var table = Table("NAME", "TOP", "INSTANCES", "SMART ROTATE")
                for stack in stacks {
                    table.add(stack.name, stack.top ?? "-", stack.instances.joined(separator: ","), stack.smartRotate ? "on" : "off")
                }
                table.print()
            }
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "remove", abstract: "Remove a stack (its instances stay).")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The stack.", completion: Completions.stacks) var name: String
        func run() throws {
            let result = try global.call(Methods.StackRemove.self, StackNameParams(name: name))
            global.emit(result) { Terminal.print("removed stack \(result.removed)") }
        }
    }
}
