import Foundation

/// A provider executable serving one or more kinds (WidgetKit's `WidgetBundle`): mark it
/// `@main` and list a configuration per kind.
///
/// ```swift
/// @main
/// struct ExampleWidgets: WidgetProviderBundle {
///     var body: [any WidgetConfiguration] {
///         IntentConfiguration(kind: "com.example.random-number", intent: RandomNumberIntent.self,
///                             provider: RandomNumberProvider())
///         StaticConfiguration(kind: "com.example.quote", provider: QuoteProvider())
///     }
/// }
/// ```
///
/// Every descriptor of these kinds names the same executable in `provider.exec`; widgetd may
/// then serve instances of several kinds in one `timeline` launch.
public protocol WidgetProviderBundle {
    init()

    /// The kinds served, each with its provider.
    @WidgetBundleBuilder var body: [any WidgetConfiguration] { get }
}

extension WidgetProviderBundle {
    /// Runs one exchange of widgetd's exec protocol: the verb is the last argument, the request
    /// is stdin, the answer goes to stdout. On failure, one line on stderr and a non-zero exit
    /// (64: no verb; 65: the request or a kind is wrong; 1: the provider failed).
    public static func main() async {
        let arguments = CommandLine.arguments
        let program = URL(fileURLWithPath: arguments.first ?? "provider").lastPathComponent
        guard arguments.count >= 2, let verb = arguments.last else {
            fail("\(program): usage: \(program) timeline|snapshot|placeholder|options|relevance|perform < REQUEST.json", status: 64)
        }
        let request = FileHandle.standardInput.readDataToEndOfFile()
        // stdout carries exactly one JSON answer: keep it aside and send fd 1 to stderr, so a
        // `print()` left in provider code (harmless in a widget extension) lands in the log
        // instead of corrupting the answer.
        fflush(nil)
        let answerFD = dup(STDOUT_FILENO)
        dup2(STDERR_FILENO, STDOUT_FILENO)
        do {
            var answer = try await answer(verb: verb, request: request)
            answer.append(UInt8(ascii: "\n"))
            fflush(nil)
            FileHandle(fileDescriptor: answerFD >= 0 ? answerFD : STDERR_FILENO, closeOnDealloc: false).write(answer)
            exit(0)
        } catch let error as WidgetProviderError {
            let status: Int32
            switch error {
            case .unknownVerb: status = 64
            case .badRequest, .unknownKind, .badConfiguration, .unknownIntent, .badIntent: status = 65
            default: status = 1
            }
            fail("\(program) \(verb): \(error)", status: status)
        } catch {
            fail("\(program) \(verb): \(error)", status: 1)
        }
    }

    /// Answers one request without a process: what `main()` does between reading stdin and
    /// writing stdout. For tests.
    public static func answer(verb: String, request: Data) async throws -> Data {
        try await BundleDispatcher(Self().body).answer(verb: verb, request: request)
    }

    private static func fail(_ message: String, status: Int32) -> Never {
        // Newlines inside would hide the cause: widgetd logs the last stderr line.
        let line = message.split(whereSeparator: \.isNewline).joined(separator: " ")
        FileHandle.standardError.write(Data((line + "\n").utf8))
        exit(status)
    }
}
