import Foundation
import Testing
@testable import WidgetIntegrationSupport

extension Integration {
    /// widgetd-web against a real widgetd on the virtual clock, read and clicked in a real
    /// (headless) Chromium through the DevTools protocol.
    @Suite struct WebHost {
        static let start = "2026-01-05T09:00:00Z"

        /// The daemon with the shipped examples (their HTML templates included).
        static func daemon() throws -> DaemonFixture {
            let fixture = try DaemonFixture()
            try fixture.start(clock: start, arguments: ["--widgets-dir", TestPaths.repository + "/etc/widgetd/widgets.d"])
            return fixture
        }

        static func js(_ text: String) -> String { "JSON.stringify(\(text))" }

        /// The instance on top of a stack in the page, as the DOM has it.
        static func topInDOM(_ stack: String) -> String {
            "document.querySelector('[data-stack=\"\(stack)\"] .card.top')?.dataset.instance ?? null"
        }

        /// A push-only kind drawn by an HTML template of the fixture's.
        static func templatedKind(_ fixture: DaemonFixture) throws {
            try #"<div class="t-note"><b class="word">{{word}}</b> <i>{{family}}</i></div>"#
                .write(toFile: fixture.widgetsDirectory + "/note.mustache", atomically: true, encoding: .utf8)
            try #"{"kind": "test.note", "displayName": "Note", "supportedFamilies": ["systemSmall"], "templates": {"html": "note.mustache"}}"#
                .write(toFile: fixture.widgetsDirectory + "/note.json", atomically: true, encoding: .utf8)
        }

        /// `entries`: (date, word, relevance score for an hour or nil).
        static func push(_ fixture: DaemonFixture, _ id: String, _ entries: [(String, String, Double?)]) {
            let items = entries.map { date, word, score in
                let relevance = score.map { #","relevance":{"score":\#($0),"duration":3600}"# } ?? ""
                return #"{"date":"\#(date)","content":{"word":"\#(word)"}\#(relevance)}"#
            }
            let result = fixture.ctl(["push", id, "-"], stdin: #"{"entries":[\#(items.joined(separator: ","))],"policy":"never"}"#)
            #expect(result.status == 0, "\(result.stderr)")
        }

        @Test func aRotationReachesTheBrowserWithoutAReload() throws {
            let fixture = try DaemonFixture()
            try Self.templatedKind(fixture)
            try fixture.start(clock: Self.start)
            #expect(fixture.ctl("stack", "create", "home").status == 0)
            let first = try fixture.add("test.note")
            let second = try fixture.add("test.note")
            // The first is relevant until 10:00, the second from then on.
            Self.push(fixture, first, [("2026-01-05T09:00:00Z", "morning", 1)])
            Self.push(fixture, second, [("2026-01-05T09:00:00Z", "later", nil), ("2026-01-05T10:00:00Z", "now", 1)])
            #expect(fixture.ctl("stack", "add", "home", first, second).status == 0)
            #expect(fixture.ctl("clock", "advance", "0s").status == 0)
            let host = try WebHostProcess(fixture)
            let browser = try Chromium(url: host.url, directory: fixture.directory)
            defer { browser.close() }
            let page = try browser.page()
            try page.waitFor("the home stack with the first note on top", Self.topInDOM("home")) { $0 as? String == first }
            // The other widget of the stack is beside the top, smaller; the kind's template drew both.
            #expect(try page.evaluate("document.querySelector('[data-stack=\"home\"] .card.peek')?.dataset.instance") as? String == second)
            #expect(try page.evaluate("document.querySelector('[data-stack=\"home\"] .card.top .t-note .word')?.textContent") as? String == "morning")
            let loaded = try page.evaluate("window.performance.timeOrigin") as? Double

            #expect(fixture.ctl("clock", "advance", "61m").status == 0)
            // The page's updates arrive as separate events: each waited for, none read at once.
            try page.waitFor("the rotation to the second note in the DOM", Self.topInDOM("home")) { $0 as? String == second }
            try page.waitFor("the second note's new entry", "document.querySelector('[data-stack=\"home\"] .card.top .word')?.textContent") {
                $0 as? String == "now"
            }
            #expect(try page.evaluate("document.querySelector('[data-stack=\"home\"] .card.top i')?.textContent") as? String == "systemSmall")
            // Without the page being loaded again.
            #expect(try page.evaluate("window.performance.timeOrigin") as? Double == loaded)
            try page.waitFor("the page's clock at the advanced instant", "document.getElementById('clock').textContent") {
                $0 as? String == "virtual clock 2026-01-05 10:01:00 UTC"
            }
        }

        @Test func theControlsSwipeTurnSmartRotateOffAndExplain() throws {
            let fixture = try DaemonFixture()
            try Self.templatedKind(fixture)
            try fixture.start(clock: Self.start)
            // A name that the page must escape in its routes.
            #expect(fixture.ctl("stack", "create", "my desk").status == 0)
            let first = try fixture.add("test.note")
            let second = try fixture.add("test.note")
            Self.push(fixture, first, [("2026-01-05T09:00:00Z", "morning", 1)])
            Self.push(fixture, second, [("2026-01-05T09:00:00Z", "later", nil)])
            #expect(fixture.ctl("stack", "add", "my desk", first, second).status == 0)
            #expect(fixture.ctl("clock", "advance", "0s").status == 0)
            let host = try WebHostProcess(fixture)
            let browser = try Chromium(url: host.url, directory: fixture.directory)
            defer { browser.close() }
            let page = try browser.page()
            try page.waitFor("the first note on top", Self.topInDOM("my desk")) { $0 as? String == first }
            func stack() -> [String: Any] { fixture.ctl("--json", "stack", "list").array.first ?? [:] }

            // A tap on the smaller widget beside the top swipes to it.
            try page.evaluate("document.querySelector('[data-stack=\"my desk\"] .card.peek .face').click()")
            try page.waitFor("the swipe to the second note", Self.topInDOM("my desk")) { $0 as? String == second }
            #expect(stack()["top"] as? String == second)

            try page.evaluate("document.querySelector('[data-stack=\"my desk\"] [data-action=smart-rotate]').click()")
            try Poll.until("Smart Rotate off in widgetd", within: 10) { stack()["smartRotate"] as? Bool == false }
            try page.waitFor("the switch drawn off", "document.querySelector('[data-stack=\"my desk\"] [data-action=smart-rotate]').checked") { $0 as? Bool == false }

            try page.evaluate("document.querySelector('[data-stack=\"my desk\"] [data-action=explain]').click()")
            try page.waitFor("the explain panel's two candidates", "document.querySelectorAll('#panel:not([hidden]) tbody tr').length") { $0 as? Int == 2 }
            try page.evaluate("document.querySelector('[data-stack=\"my desk\"] [data-action=log]').click()")
            try page.waitFor("the decision log's swipe", "document.getElementById('panel-body').textContent") { ($0 as? String ?? "").contains(second) }
            try page.evaluate("document.querySelector('[data-instance=\"\(first)\"] [data-action=timeline]').click()")
            try page.waitFor("the first note's budget", "document.querySelector('[data-budget=\"\(first)\"]')?.textContent ?? ''") {
                ($0 as? String ?? "").hasSuffix("reloads in 24 h")
            }
            try page.evaluate("document.getElementById('open-schedule').click()")
            try page.waitFor("the schedule panel", "document.getElementById('panel-title').textContent") { $0 as? String == "Schedule" }

            // The coming day, drawn as `widgetctl simulate --svg` draws it, loads as an image.
            try page.evaluate("document.getElementById('open-day').click()")
            try page.waitFor("the simulated day's picture", "document.querySelector('#panel-body img.simulation')?.naturalWidth ?? 0") {
                ($0 as? Int ?? 0) > 400
            }
        }

        /// `WIDGETD_WEB_SCREENSHOTS=DIR` writes the page (`web.png`, the README's picture),
        /// the gallery and the Edit Widget sheet there, with the shipped examples.
        @Test(.enabled(if: ProcessInfo.processInfo.environment["WIDGETD_WEB_SCREENSHOTS"] != nil))
        func screenshots() throws {
            let folder = ProcessInfo.processInfo.environment["WIDGETD_WEB_SCREENSHOTS"]!
            let fixture = try Self.daemon()
            #expect(fixture.ctl("stack", "create", "home").status == 0)
            let ranger = try fixture.add("com.example.emoji-rangers", "character=egghead")
            let random = try fixture.add("com.example.random-number")
            let panda = try fixture.add("com.example.emoji-rangers", "character=panda")
            #expect(fixture.ctl("stack", "add", "home", ranger, random, panda).status == 0)
            #expect(fixture.ctl("stack", "create", "desk").status == 0)
            let load = try fixture.add("com.example.system-load", family: "systemMedium")
            let clock = try fixture.add("com.example.clock")
            #expect(fixture.ctl("stack", "add", "desk", load, clock).status == 0)
            _ = try fixture.add("com.example.quote", family: "systemMedium")
            _ = try fixture.add("com.example.shortcuts", family: "systemMedium")
            #expect(fixture.ctl("clock", "advance", "20m").status == 0)
            let host = try WebHostProcess(fixture)
            let browser = try Chromium(url: host.url, directory: fixture.directory, width: 1200, height: 860)
            defer { browser.close() }
            let page = try browser.page()
            try page.waitFor("six cards drawn by their templates", "document.querySelectorAll('main [class^=t-]').length") { ($0 as? Int ?? 0) >= 7 }
            usleep(300_000)  // fonts
            try page.screenshot().write(to: URL(fileURLWithPath: folder + "/web.png"))

            try page.evaluate("document.getElementById('open-gallery').click()")
            try page.waitFor("the gallery's previews", "document.querySelectorAll('#gallery [class^=t-]').length") { ($0 as? Int ?? 0) >= 10 }
            try page.screenshot().write(to: URL(fileURLWithPath: folder + "/web-gallery.png"))
            try page.evaluate("document.querySelector('#gallery [data-close]').click()")

            try page.evaluate("document.querySelector('[data-instance=\"\(random)\"] [data-action=edit]').click()")
            try page.waitFor("the sheet", "!!document.querySelector('#editor:not([hidden]) [name=maxNumber]')") { $0 as? Bool == true }
            try page.evaluate("document.querySelector('#editor [name=useCustomRange]').click()")
            try page.waitFor("the provider's ranges", "document.querySelector('#editor [data-field=customRange]').outerHTML") { ($0 as? String ?? "").contains("1-10") }
            try page.screenshot().write(to: URL(fileURLWithPath: folder + "/web-edit.png"))
        }

        @Test func theEventStreamDeliversAnEntryChange() throws {
            let fixture = try DaemonFixture()
            try fixture.descriptor("test.note", exec: nil)
            try fixture.start(clock: "2026-01-05T08:00:00Z")
            let id = try fixture.add("test.note")
            let pushed = fixture.ctl(
                ["push", id, "-"],
                stdin: #"{"entries":[{"date":"2026-01-05T08:00:00Z","content":{"word":"one"}},{"date":"2026-01-05T08:01:00Z","content":{"word":"two"}}],"policy":"never"}"#)
            #expect(pushed.status == 0, "\(pushed.stderr)")
            let host = try WebHostProcess(fixture)
            let events = try StreamConnection(port: host.port)
            try events.send("GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n")
            let deadline = ContinuousClock.now + .seconds(20)
            let head = try events.read(through: "event: hello", by: deadline, "the stream's hello")
            #expect(head.contains("text/event-stream"))
            #expect(fixture.ctl("clock", "advance", "90s").status == 0)
            _ = try events.read(through: "event: entryChange\ndata: ", by: deadline, "an entryChange event")
            let data = try events.read(through: "\n", by: deadline, "the entryChange event's data")
            #expect(data.contains(#""instance":"\#(id)""#))
            #expect(data.contains(#""word":"two""#))

            // SIGTERM ends the open stream and the host.
            #expect(host.stop() == 0)
            _ = try events.read(through: "0\r\n\r\n", by: deadline, "the stream's end")
        }

        @Test func anotherSiteCannotChangeWidgetsThroughTheBrowser() throws {
            let fixture = try DaemonFixture()
            try fixture.descriptor("test.note", exec: nil)
            try fixture.start(clock: "2026-01-05T08:00:00Z")
            let host = try WebHostProcess(fixture)
            func status(_ request: String) throws -> String {
                let connection = try StreamConnection(port: host.port)
                try connection.send(request)
                return try connection.read(through: "\r\n", by: ContinuousClock.now + .seconds(10), "the status line")
            }
            let body = #"{"kind":"test.note","family":"systemSmall"}"#
            let add = "POST /api/instances HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n"
            // A form or fetch from another site's page.
            #expect(try status(add + "Host: 127.0.0.1:\(host.port)\r\nOrigin: http://elsewhere.example\r\n\r\n" + body).hasPrefix("HTTP/1.1 403"))
            // A name of another site made to resolve to this machine.
            #expect(try status("GET /api/page HTTP/1.1\r\nHost: elsewhere.example:\(host.port)\r\n\r\n").hasPrefix("HTTP/1.1 403"))
            #expect(fixture.ctl("--json", "list").array.isEmpty)
            // The page itself may.
            #expect(try status(add + "Host: localhost:\(host.port)\r\nOrigin: http://localhost:\(host.port)\r\n\r\n" + body).hasPrefix("HTTP/1.1 200"))
            #expect(fixture.ctl("--json", "list").array.count == 1)
        }

        @Test func whatTheBrowserShowsIsReportedVisibleAndNothingOnceItIsGone() throws {
            let fixture = try Self.daemon()
            #expect(fixture.ctl("stack", "create", "home").status == 0)
            let top = try fixture.add("com.example.clock")
            let other = try fixture.add("com.example.random-number")
            let single = try fixture.add("com.example.quote", family: "systemMedium")
            #expect(fixture.ctl("stack", "add", "home", top, other).status == 0)
            func visible() -> Set<String> {
                Set(fixture.ctl("--json", "list").array.filter { $0["visible"] as? Bool == true }.compactMap { $0["id"] as? String })
            }
            let host = try WebHostProcess(fixture)
            #expect(visible().isEmpty, "no browser yet, nothing shown")
            let browser = try Chromium(url: host.url, directory: fixture.directory)
            let page = try browser.page()
            let shown = try page.waitFor("three cards on the page", "[...document.querySelectorAll('main [data-shown]')].map(e => e.dataset.instance).sort().join(' ')") {
                ($0 as? String)?.split(separator: " ").count == 3
            }
            #expect(shown as? String == [top, other, single].sorted().joined(separator: " "))
            try Poll.until("widgetd to hear that the page shows all three", within: 10) { visible() == [top, other, single] }
            browser.close()
            try Poll.until("widgetd to hear that nothing is shown once the browser is gone", within: 10) { visible().isEmpty }
        }

        @Test func thePageComesBackAfterWidgetdRestarts() throws {
            let fixture = try DaemonFixture()
            try Self.templatedKind(fixture)
            try fixture.start(clock: Self.start)
            let id = try fixture.add("test.note")
            Self.push(fixture, id, [("2026-01-05T09:00:00Z", "before", nil)])
            let host = try WebHostProcess(fixture)
            let browser = try Chromium(url: host.url, directory: fixture.directory)
            defer { browser.close() }
            let page = try browser.page()
            let word = "document.querySelector('[data-instance=\"\(id)\"] .word')?.textContent ?? null"
            try page.waitFor("the note", word) { $0 as? String == "before" }
            func visible() -> Bool { fixture.ctl("--json", "list").array.first?["visible"] as? Bool == true }
            try Poll.until("the note reported visible", within: 10) { visible() }

            #expect(fixture.stop() == 0)
            try page.waitFor("the page to say widgetd is away", "document.getElementById('status').textContent") {
                ($0 as? String ?? "").hasPrefix("widgetd is away")
            }
            try fixture.start(clock: Self.start)
            // The host connects again by itself; the page reads again and reports again.
            Self.push(fixture, id, [("2026-01-05T09:00:00Z", "after", nil)])
            try page.waitFor("the note's new entry after the restart", word) { $0 as? String == "after" }
            try Poll.until("the note reported visible to the new daemon", within: 10) { visible() }
            #expect(try page.evaluate("document.getElementById('status').textContent") as? String == "")
        }

        @Test func theEditSheetShowsTheDaemonsErrorNextToItsFieldAndSaves() throws {
            let fixture = try Self.daemon()
            let id = try fixture.add("com.example.random-number")
            let host = try WebHostProcess(fixture)
            let browser = try Chromium(url: host.url, directory: fixture.directory)
            defer { browser.close() }
            let page = try browser.page()
            try page.waitFor("the random number's card", "!!document.querySelector('[data-instance=\"\(id)\"] [data-action=edit]')") { $0 as? Bool == true }
            try page.evaluate("document.querySelector('[data-instance=\"\(id)\"] [data-action=edit]').click()")
            try page.waitFor("the sheet's Max Number field", "!!document.querySelector('#editor:not([hidden]) [name=maxNumber]')") { $0 as? Bool == true }
            // showIf: the custom range is shown only while "Use Custom Range" is on.
            #expect(try page.evaluate("document.querySelector('#editor [data-field=customRange]').hidden") as? Bool == true)
            #expect(try page.evaluate("document.querySelector('#editor [name=maxNumber]').value") as? String == "100")
            // In the descriptor's colours.
            #expect(try page.evaluate("getComputedStyle(document.querySelector('#editor .sheet')).backgroundColor") as? String == "rgb(36, 28, 51)")
            #expect(try page.evaluate("getComputedStyle(document.getElementById('editor-save')).backgroundColor") as? String == "rgb(191, 90, 242)")
            // Turned on, it shows the range picker, its options from the provider, searched.
            try page.evaluate("document.querySelector('#editor [name=useCustomRange]').click()")
            try page.waitFor("the provider's ranges", "[...document.querySelectorAll('#editor [name=customRange] option')].map(o => o.value).join(' ')") {
                $0 as? String == " 1-10 1-100 50-150 100-1000"
            }
            #expect(try page.evaluate("document.querySelector('#editor [data-field=maxNumber]').hidden") as? Bool == true)
            // The preview follows the sheet.
            try page.evaluate("const r = document.querySelector('#editor [name=customRange]'); r.value = '1-10'; r.dispatchEvent(new Event('change'))")
            try page.waitFor("the preview drawn from 1 to 10", "document.querySelector('#editor-preview .range')?.textContent ?? null") { $0 as? String == "1...10" }
            try page.evaluate("const s = document.querySelector('#editor [data-field=customRange] .search'); s.value = 'hundred'; s.dispatchEvent(new Event('input'))")
            try page.waitFor("the ranges that match 'hundred'", "[...document.querySelectorAll('#editor [name=customRange] option')].map(o => o.value).join(' ')") {
                ($0 as? String ?? "").split(separator: " ").count < 4
            }
            try page.evaluate("document.querySelector('#editor [name=useCustomRange]').click()")

            let setMax = { (value: String) in
                "(() => { const i = document.querySelector('#editor [name=maxNumber]'); i.value = '\(value)';"
                    + " i.dispatchEvent(new Event('input')); document.getElementById('editor-save').click(); })()"
            }
            try page.evaluate(setMax("500"))
            let error = try page.waitFor("the daemon's error next to Max Number", "document.querySelector('#editor [data-error-for=maxNumber]').textContent") {
                !(($0 as? String) ?? "").isEmpty
            }
            #expect((error as? String ?? "").contains("200"), "\(String(describing: error))")
            let unchanged = fixture.ctl("--json", "list").array.first?["configuration"] as? [String: Any]
            #expect(unchanged?["maxNumber"] as? Int == 100)

            try page.evaluate(setMax("42"))
            try page.waitFor("the sheet to close once saved", "document.getElementById('editor').hidden") { $0 as? Bool == true }
            let configuration = fixture.ctl("--json", "list").array.first?["configuration"] as? [String: Any]
            #expect(configuration?["maxNumber"] as? Int == 42)
        }

        @Test func aParameterOfSeveralValuesGetsTheFamilysCountOfPickers() throws {
            let fixture = try Self.daemon()
            let id = try fixture.add("com.example.shortcuts", family: "systemMedium")
            let host = try WebHostProcess(fixture)
            let browser = try Chromium(url: host.url, directory: fixture.directory)
            defer { browser.close() }
            let page = try browser.page()
            try page.waitFor("the shortcuts' card", "!!document.querySelector('[data-instance=\"\(id)\"] [data-action=edit]')") { $0 as? Bool == true }
            try page.evaluate("document.querySelector('[data-instance=\"\(id)\"] [data-action=edit]').click()")
            // Four pickers for systemMedium, each on its default, each offering the provider's eight buttons.
            let pickers = "[...document.querySelectorAll('#editor [data-field=buttons] select')]"
            try page.waitFor("four pickers with the provider's options", "\(pickers).map(s => s.options.length).join(' ')") { $0 as? String == "9 9 9 9" }
            #expect(try page.evaluate("\(pickers).map(s => s.value).join(' ')") as? String == "scan pay collect card")
            try page.evaluate("const s = \(pickers)[3]; s.value = 'travel'; s.dispatchEvent(new Event('change')); document.getElementById('editor-save').click()")
            try page.waitFor("the sheet to close once saved", "document.getElementById('editor').hidden") { $0 as? Bool == true }
            let configuration = fixture.ctl("--json", "list").array.first?["configuration"] as? [String: Any]
            #expect(configuration?["buttons"] as? [String] == ["scan", "pay", "collect", "travel"])
        }

        @Test func theGalleryAddsAnInstanceIntoAStack() throws {
            let fixture = try Self.daemon()
            #expect(fixture.ctl("stack", "create", "home").status == 0)
            let host = try WebHostProcess(fixture)
            let browser = try Chromium(url: host.url, directory: fixture.directory)
            defer { browser.close() }
            let page = try browser.page()
            try page.waitFor("the empty home stack", "!!document.querySelector('[data-stack=home]')") { $0 as? Bool == true }
            try page.evaluate("document.getElementById('open-gallery').click()")
            let add = "[data-add=\"com.example.quote systemMedium\"]"
            try page.waitFor("the quote's medium preview in the gallery", "document.querySelector('[data-kind=\"com.example.quote\"] .family-systemMedium .t-quote') !== null") {
                $0 as? Bool == true
            }
            #expect(try page.evaluate("document.querySelector('[data-kind=\"com.example.quote\"] h3').textContent") as? String == "Quote")
            try page.evaluate("document.getElementById('gallery-stack').value = 'home'; document.querySelector('\(add)').click()")
            try page.waitFor("the new quote on top of the home stack", "document.querySelector('[data-stack=home] .card.top')?.dataset.kind ?? null") {
                $0 as? String == "com.example.quote"
            }
            let listed = fixture.ctl("--json", "list").array
            #expect(listed.map { $0["kind"] as? String } == ["com.example.quote"])
            #expect(listed.first?["family"] as? String == "systemMedium")
            let stacks = fixture.ctl("--json", "stack", "list").array
            #expect(stacks.first?["instances"] as? [String] == listed.compactMap { $0["id"] as? String })
        }
    }
}
