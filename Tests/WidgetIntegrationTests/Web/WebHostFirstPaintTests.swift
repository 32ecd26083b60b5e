import Foundation
import Testing
@testable import WidgetIntegrationSupport

extension Integration {
    /// The web host's page arrives with the stacks and widgets already drawn: a browser that
    /// runs no script (or has not run it yet) shows them, and the script then takes the page
    /// over without drawing it twice.
    @Suite struct WebHostFirstPaint {
        /// Two stacks: `home` holds two notes drawn by the fixture's template, `desk` one widget
        /// of a kind without a template (the generic card).
        struct Stacks {
            var homeTop: String
            var homeOther: String
            var deskTop: String
            var all: [String] { [homeTop, homeOther, deskTop] }
        }

        static func twoStacks(_ fixture: DaemonFixture, deskContent: String = #"{"city":"Lisbon","temperature":21}"#) throws -> Stacks {
            try WebHost.templatedKind(fixture)
            try fixture.descriptor("test.plain", exec: nil)
            try fixture.start(clock: WebHost.start)
            #expect(fixture.ctl("stack", "create", "home").status == 0)
            #expect(fixture.ctl("stack", "create", "desk").status == 0)
            let homeTop = try fixture.add("test.note")
            let homeOther = try fixture.add("test.note")
            let deskTop = try fixture.add("test.plain")
            WebHost.push(fixture, homeTop, [("2026-01-05T09:00:00Z", "morning", 1)])
            WebHost.push(fixture, homeOther, [("2026-01-05T09:00:00Z", "later", nil)])
            let pushed = fixture.ctl(["push", deskTop, "-"], stdin: #"{"entries":[{"date":"2026-01-05T09:00:00Z","content":\#(deskContent)}],"policy":"never"}"#)
            #expect(pushed.status == 0, "\(pushed.stderr)")
            #expect(fixture.ctl("stack", "add", "home", homeTop, homeOther).status == 0)
            #expect(fixture.ctl("stack", "add", "desk", deskTop).status == 0)
            #expect(fixture.ctl("clock", "advance", "0s").status == 0)
            return Stacks(homeTop: homeTop, homeOther: homeOther, deskTop: deskTop)
        }

        /// Whether `html` shows stack `stack` with `top` as its top card, holding `content`.
        static func shows(_ html: String, stack: String, top: String, content: String) -> Bool {
            guard let start = html.range(of: "data-stack=\"\(stack)\"") else { return false }
            let rest = html[start.upperBound...]
            let article = rest.range(of: "data-stack=\"").map { rest[..<$0.lowerBound] } ?? rest
            guard let card = article.range(of: "class=\"card top") else { return false }
            let topCard = article[card.upperBound...]
            let end = topCard.range(of: "class=\"card peek").map { topCard[..<$0.lowerBound] } ?? topCard
            return end.hasPrefix(" family-systemSmall\" data-instance=\"\(top)\"") && end.contains(content)
        }

        static func showsBoth(_ html: String, _ stacks: Stacks) -> Bool {
            shows(html, stack: "home", top: stacks.homeTop, content: #"<b class="word">morning</b>"#)
                && shows(html, stack: "desk", top: stacks.deskTop, content: "<dd>Lisbon</dd>")
        }

        /// A plain `chromium --headless --dump-dom`: no DevTools, no waiting but the browser's own.
        static func dumpDOM(_ url: String, profile: String) -> DaemonFixture.Result {
            ProgramRun.run(
                Chromium.executable,
                ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--user-data-dir=" + profile, "--dump-dom", url],
                deadline: ChromiumShot.deadline)
        }

        /// The page at `url` as `page` shows it with the page's script switched off (what a
        /// browser draws before any script runs), once loaded; scripts are on again after.
        /// `--dump-dom` cannot do this: it dumps nothing when scripts are off.
        static func withoutScript(_ page: DevToolsPage, _ url: String) throws -> String {
            try page.command("Emulation.setScriptExecutionDisabled", ["value": true])
            defer { _ = try? page.command("Emulation.setScriptExecutionDisabled", ["value": false]) }
            try page.command("Page.navigate", ["url": url])
            let loaded = "location.href.replace(/\\/$/, '') === '\(url)'.replace(/\\/$/, '') && document.readyState === 'complete'"
            try page.waitFor("\(url) loaded without script", loaded) { $0 as? Bool == true }
            return try page.evaluate("document.documentElement.outerHTML") as? String ?? ""
        }

        @Test func aPlainDumpOfThePageShowsEveryStacksTopWidgetEveryTime() throws {
            let fixture = try DaemonFixture()
            let stacks = try Self.twoStacks(fixture)
            let host = try WebHostProcess(fixture)

            // Plain HTTP, as a program that runs no script gets it.
            let served = try StreamConnection.get(port: host.port, "/")
            #expect(Self.showsBoth(served, stacks), "GET / without the widgets:\n\(served)")
            #expect(served.contains(#"<b class="word">later</b>"#), "the peek beside home's top")

            // A browser that runs no script shows them too.
            do {
                let browser = try Chromium(url: "about:blank", directory: fixture.directory)
                defer { browser.close() }
                let still = try Self.withoutScript(try browser.page(), host.url)
                #expect(Self.showsBoth(still, stacks), "without JavaScript the page showed no widgets:\n\(still)")
            }

            let runs = 6
            var shown = 0
            for run in 1...runs {
                let dump = Self.dumpDOM(host.url, profile: fixture.directory + "/dump-\(run)")
                #expect(dump.status == 0, "chromium --dump-dom, run \(run): \(dump.stderr)")
                if Self.showsBoth(dump.stdout, stacks) { shown += 1 } else { Issue.record("run \(run) showed no widgets:\n\(dump.stdout)") }
                // One card per instance: the script, if it ran, replaced what was served.
                for id in stacks.all {
                    #expect(dump.stdout.components(separatedBy: "data-instance=\"\(id)\"").count == 2, "run \(run): \(id) once")
                }
            }
            print("first paint: \(shown) of \(runs) `chromium --headless --dump-dom` runs showed both stacks' top widgets and their content")
            #expect(shown == runs)
        }

        /// Opens the host's page in `browser` (started on about:blank), watched from before any
        /// script of the page runs: `firstPaint.served` is what the parser built from the served
        /// HTML, `firstPaint.cards` its cards, and `firstPaint.counts` the cards in `main` after
        /// every change the page makes to it.
        static func watch(_ browser: Chromium, _ host: WebHostProcess) throws -> DevToolsPage {
            let page = try browser.page()
            try page.command("Page.enable")
            try page.command("Page.addScriptToEvaluateOnNewDocument", ["source": """
                window.firstPaint = { served: null, cards: null, counts: [] };
                document.addEventListener('readystatechange', () => {
                  if (document.readyState !== 'interactive') return;
                  const main = document.querySelector('main');
                  const count = () => main.querySelectorAll('.card[data-instance]').length;
                  firstPaint.served = main.innerHTML;
                  firstPaint.cards = count();
                  new MutationObserver(() => firstPaint.counts.push(count())).observe(main, { childList: true, subtree: true });
                });
                """])
            try page.command("Page.navigate", ["url": host.url])
            return page
        }

        @Test func theScriptTakesTheServedPageOverWithoutAFlashOrADuplicateAndGoesLive() throws {
            let fixture = try DaemonFixture()
            let stacks = try Self.twoStacks(fixture)
            let host = try WebHostProcess(fixture)
            let browser = try Chromium(url: "about:blank", directory: fixture.directory)
            defer { browser.close() }
            let page = try Self.watch(browser, host)
            try page.waitFor("the served page parsed", "window.firstPaint?.cards ?? null") { $0 as? Int == 3 }
            // The script has read /api/page and drawn (a draw always changes `main`)...
            try page.waitFor("the script's first draw", "window.firstPaint.counts.length") { ($0 as? Int ?? 0) > 0 }
            try Poll.until("widgetd to hear the page shows the three widgets", within: 10) {
                Set(fixture.ctl("--json", "list").array.filter { $0["visible"] as? Bool == true }.compactMap { $0["id"] as? String })
                    == Set(stacks.all)
            }
            // ...the same markup the host served: nothing in the page changed.
            let served = try page.evaluate("window.firstPaint.served") as? String
            #expect(try page.evaluate("document.querySelector('main').innerHTML") as? String == served)

            // Live: a change pushed to widgetd shows without a reload, and no card is drawn twice.
            let loaded = try page.evaluate("window.performance.timeOrigin") as? Double
            WebHost.push(fixture, stacks.homeTop, [("2026-01-05T09:00:00Z", "evening", 1)])
            try page.waitFor("the pushed entry in home's top card", "document.querySelector('[data-stack=home] .card.top .word')?.textContent ?? null") {
                $0 as? String == "evening"
            }
            let perInstance = WebHost.js("[\(stacks.all.map { "'\($0)'" }.joined(separator: ","))].map((id) => document.querySelectorAll(`.card[data-instance=\"${id}\"]`).length)")
            #expect(try page.evaluate(perInstance) as? String == "[1,1,1]")
            #expect(try page.evaluate("window.performance.timeOrigin") as? Double == loaded)
            // The controls work on what was served and redrawn: a tap on the peek swipes.
            try page.evaluate("document.querySelector('[data-stack=home] .card.peek .face').click()")
            try page.waitFor("the swipe to the other note", WebHost.topInDOM("home")) { $0 as? String == stacks.homeOther }
            #expect(try page.evaluate(perInstance) as? String == "[1,1,1]")
            let counts = try page.evaluate(WebHost.js("window.firstPaint.counts")) as? String ?? ""
            print("first paint: cards in `main` after each change the script made: \(counts)")
            #expect(try page.evaluate("Math.min(...window.firstPaint.counts)") as? Int == 3, "the page never showed fewer cards: \(counts)")
        }

        @Test func aHostileValueIsEscapedInTheServedPage() throws {
            let fixture = try DaemonFixture()
            // Beside markup in values: live dates whose date or style carry markup (not live
            // dates, so shown as they are), and a good one beside them.
            let hostile = #"{"city":"<img src=x onerror=alert(1)>","note":"</script><script>alert(2)</script><!--","#
                + #""live":{"$date":"<img src=y onerror=alert(3)>","style":"timer"},"#
                + #""liveStyle":{"$date":"2026-01-05T08:12:00Z","style":"timer\"><img src=z onerror=alert(4)>"},"#
                + #""next":{"$date":"2026-01-05T12:12:00Z","style":"timer"}}"#
            let stacks = try Self.twoStacks(fixture, deskContent: hostile)
            WebHost.push(fixture, stacks.homeTop, [("2026-01-05T09:00:00Z", "<b id=injected>bold</b>", 1)])
            let name = #"<i id="named">desk</i> & "co""#
            #expect(fixture.ctl("stack", "create", name).status == 0)
            let third = try fixture.add("test.note")
            #expect(fixture.ctl("stack", "add", name, third).status == 0)
            let host = try WebHostProcess(fixture)

            let served = try StreamConnection.get(port: host.port, "/")
            for injected in ["<img", "<script>alert", "<b id=injected", "<i id=\"named\"", "<!--"] {
                #expect(!served.contains(injected), "\(injected) got into the served page")
            }
            #expect(served.contains("<dd>&lt;img src=x onerror=alert(1)&gt;</dd>"))
            #expect(served.contains(#"<dd><time class="live-date" datetime="2026-01-05T12:12:00Z" data-live-style="timer">3:12:00</time></dd>"#), "\(served)")
            #expect(served.contains("&lt;img src=y onerror=alert(3)&gt;") && served.contains("&lt;img src=z onerror=alert(4)&gt;"))
            #expect(served.contains("&lt;b id=injected&gt;bold&lt;/b&gt;"))
            #expect(served.contains("<h2>&lt;i id=&quot;named&quot;&gt;desk&lt;/i&gt; &amp; &quot;co&quot;</h2>"))

            // In a browser: the values read as text, nothing of them became an element.
            let browser = try Chromium(url: host.url, directory: fixture.directory)
            defer { browser.close() }
            let page = try browser.page()
            try page.waitFor("the hostile city as text", "document.querySelector('[data-stack=desk] .card.top dd')?.textContent ?? null") {
                $0 as? String == "<img src=x onerror=alert(1)>"
            }
            #expect(try page.evaluate("document.querySelectorAll('main .card[data-instance]').length") as? Int == 4)
            #expect(try page.evaluate("document.querySelectorAll('main img, main script, #injected, #named').length") as? Int == 0)
            let names = try page.evaluate(WebHost.js("[...document.querySelectorAll('[data-stack]')].map((s) => s.dataset.stack)")) as? String
            let parsed = try JSONSerialization.jsonObject(with: Data((names ?? "[]").utf8)) as? [String]
            #expect(Set(parsed ?? []) == ["home", "desk", name], "\(names ?? "")")
            #expect(try page.evaluate("document.querySelectorAll('script').length") as? Int == 2, "app.js and the page's data only")
        }

        @Test func aTemplateThatLeavesElementsOpenOrClosesThePagesStaysInItsCard() throws {
            let fixture = try DaemonFixture()
            try #"<div class="t-broken"><span class="word">{{word}}</section></main><table><tr><td>"#
                .write(toFile: fixture.widgetsDirectory + "/broken.mustache", atomically: true, encoding: .utf8)
            try #"{"kind": "test.broken", "displayName": "Broken", "supportedFamilies": ["systemSmall"], "templates": {"html": "broken.mustache"}}"#
                .write(toFile: fixture.widgetsDirectory + "/broken.json", atomically: true, encoding: .utf8)
            let stacks = try Self.twoStacks(fixture)
            let broken = try fixture.add("test.broken")
            WebHost.push(fixture, broken, [("2026-01-05T09:00:00Z", "cracked", 2)])
            #expect(fixture.ctl("stack", "add", "home", broken).status == 0)
            #expect(fixture.ctl("clock", "advance", "0s").status == 0)
            let host = try WebHostProcess(fixture)
            let browser = try Chromium(url: "about:blank", directory: fixture.directory)
            defer { browser.close() }
            let page = try Self.watch(browser, host)
            // Every card inside the stacks, each label and control under its own card.
            let placed = WebHost.js("""
                [document.querySelectorAll('.card[data-instance]').length, document.querySelectorAll('#stacks > .stack .card[data-instance]').length,
                 document.querySelectorAll('.card[data-instance] > .card-label').length, document.querySelector('[data-instance="\(broken)"] .word')?.textContent]
                """)
            try page.waitFor("the served page parsed", "window.firstPaint?.cards ?? null") { $0 as? Int == 4 }
            #expect(try page.evaluate(placed) as? String == #"[4,4,4,"cracked"]"#)
            try page.waitFor("the script's first draw", "window.firstPaint.counts.length") { ($0 as? Int ?? 0) > 0 }
            WebHost.push(fixture, stacks.deskTop, [("2026-01-05T09:00:00Z", "moved", nil)])
            try page.waitFor("the desk's new entry", "document.querySelector('[data-stack=desk] .card.top dd')?.textContent ?? null") { $0 as? String == "moved" }
            #expect(try page.evaluate(placed) as? String == #"[4,4,4,"cracked"]"#)
            #expect(try page.evaluate("Math.min(...window.firstPaint.counts)") as? Int == 4)
        }

        @Test func aWidgetdThatNeverAnswersDoesNotHoldThePage() throws {
            let fixture = try DaemonFixture()
            // A socket that takes connections into its backlog and never answers them.
            let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            defer { close(fd) }
            let bound = UnixAddress.bind(fd, fixture.socketPath)
            #expect(fd >= 0 && bound == 0 && listen(fd, 64) == 0)
            let host = try WebHostProcess(fixture)
            let served = try StreamConnection.get(port: host.port, "/", within: 60)
            let notice = served.components(separatedBy: "daemon-notice\" class=\"notice\" role=\"status\">").dropFirst().first?.prefix { $0 != "<" } ?? "none"
            print("first paint: with a widgetd that never answers, / gave the notice: \(notice)")
            #expect(served.contains(#"id="daemon-notice""#), "\(served)")
            #expect(host.isRunning)
        }

        @Test func withWidgetdDownThePageIsServedWithANoticeAndFillsInWhenItComes() throws {
            let fixture = try DaemonFixture()
            try WebHost.templatedKind(fixture)
            // No widgetd at the host's socket yet.
            let host = try WebHostProcess(fixture)
            let connection = try StreamConnection(port: host.port)
            try connection.send("GET / HTTP/1.1\r\nHost: 127.0.0.1:\(host.port)\r\nConnection: close\r\n\r\n")
            let status = try connection.read(through: "\r\n", by: ContinuousClock.now + .seconds(10), "the status line of GET /")
            #expect(status.hasPrefix("HTTP/1.1 200"), "\(status)")
            let served = try StreamConnection.get(port: host.port, "/")
            #expect(served.contains(#"id="daemon-notice""#) && served.contains("widgetd is not reachable"), "\(served)")
            #expect(!served.contains("data-instance"))

            let browser = try Chromium(url: host.url, directory: fixture.directory)
            defer { browser.close() }
            let page = try browser.page()
            try page.waitFor("the notice in place of the stacks", "document.getElementById('daemon-notice')?.textContent ?? ''") {
                ($0 as? String ?? "").hasPrefix("widgetd is not reachable")
            }
            try fixture.start(clock: WebHost.start)
            #expect(fixture.ctl("stack", "create", "home").status == 0)
            let id = try fixture.add("test.note")
            WebHost.push(fixture, id, [("2026-01-05T09:00:00Z", "hello", nil)])
            #expect(fixture.ctl("stack", "add", "home", id).status == 0)
            try page.waitFor("the note once widgetd answers", "document.querySelector('[data-stack=home] .card.top .word')?.textContent ?? null") {
                $0 as? String == "hello"
            }
            #expect(try page.evaluate("!!document.getElementById('daemon-notice')") as? Bool == false)
        }
    }
}
