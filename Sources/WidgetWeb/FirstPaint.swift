import Foundation
import WidgetCore
import WidgetdClient

/// What `/` is served with: the stacks and widgets as `/api/page` has them now, so a browser
/// shows them before its script has read anything (a kiosk at each reload, a headless
/// screenshot), or, when widgetd does not answer, a notice in their place; the script fills the
/// page in once widgetd is back.
struct FirstPaint: Sendable {
    var markup: PageMarkup
    /// No stack and no widget: the page's "No widgets yet" shows.
    var isEmpty: Bool
    /// `/api/page`'s answer for the script to start from, as JSON it does not execute (the
    /// page's policy runs no inline script), or nothing when widgetd did not answer.
    var initialElement: String

    /// A widgetd that holds its answer longer does not hold the page: it is served with the
    /// notice, and the script reads again.
    static let readSeconds = 5

    static func read(_ daemon: DaemonClient, renderer: CardRenderer) async -> FirstPaint {
        do throws(DaemonCallError) {
            let model = try await daemon.run { connection throws(WidgetdClientError) in
                connection.limitReads(to: readSeconds)
                return try PageModel.read(connection, renderer: renderer)
            }
            return FirstPaint(model)
        } catch {
            return FirstPaint(notice: error)
        }
    }

    init(_ model: PageModel) {
        markup = model.markup
        isEmpty = model.stacks.isEmpty && model.loose.isEmpty
        // The markup is in the page already; the script takes it from there.
        var data = model
        data.markup = .none
        let json = (try? WidgetJSON.encoder.encode(data)).map { String(decoding: $0, as: UTF8.self) }
        initialElement = json.map { #"<script type="application/json" id="initial">\#(Self.scriptSafe($0))</script>"# } ?? ""
    }

    init(notice failure: DaemonCallError) {
        let problem = failure.status == 502 || failure.status == 503 ? "widgetd is not reachable" : "widgetd did not give the page its widgets"
        let text = "\(problem): \(failure.error.message). The widgets appear here as soon as it answers."
        markup = PageMarkup(clock: "", stacks: #"<p id="daemon-notice" class="notice" role="status">\#(HTMLText.escape(text))</p>"#, loose: "")
        isEmpty = false
        initialElement = ""
    }

    /// JSON that no text inside it can end early: an HTML parser ends a script element at
    /// `</script` whatever the element's type, and `<!--` changes how it reads on. JSON writes
    /// these characters only inside strings, where their escapes read back the same.
    static func scriptSafe(_ json: String) -> String {
        var safe = ""
        safe.reserveCapacity(json.utf8.count)
        for character in json.unicodeScalars {
            switch character {
            case "<": safe += "\\u003c"
            case ">": safe += "\\u003e"
            case "&": safe += "\\u0026"
            default: safe.unicodeScalars.append(character)
            }
        }
        return safe
    }
}
