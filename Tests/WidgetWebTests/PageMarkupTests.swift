import Foundation
import Testing
import WidgetCore
@testable import WidgetWeb
@testable import WidgetTestSupport

/// The page's stacks and cards as the host renders them for `/` and `/api/page`.
@Suite("Page markup")
struct PageMarkupTests {
    static let hostile = #"<img src=x onerror="alert(1)">&'"#
    static let escaped = "&lt;img src=x onerror=&quot;alert(1)&quot;&gt;&amp;&#39;"

    static func card(_ id: String, invalidated: Bool = false, configurable: Bool = true) -> PageModel.Card {
        PageModel.Card(
            id: id, kind: hostile, family: .systemSmall, displayName: hostile, configuration: [:], configurable: configurable,
            entryDate: Date(timeIntervalSince1970: 1_767_603_600.25), html: GenericCard.html(.object(["word": .string(hostile)])),
            actions: [CardActions.Button(id: hostile, title: hostile)], invalidated: invalidated)
    }

    @Test func everyValueOfACardIsEscapedAndItsStateIsMarked() {
        let html = PageMarkup.card(Self.card("a1"), role: "top")
        #expect(!html.contains("<img"))
        #expect(html.hasPrefix(#"<div class="card top family-systemSmall" data-instance="a1" data-kind="\#(Self.escaped)" data-shown="" data-entry-date="2026-01-05T09:00:00.250Z">"#))
        #expect(html.contains(#"<dd>\#(Self.escaped)</dd>"#))
        #expect(html.contains(#"<button type="button" data-perform="\#(Self.escaped)">\#(Self.escaped)</button>"#))
        #expect(html.contains(#"<div class="card-label">\#(Self.escaped)</div>"#))
        #expect(html.contains(#"data-action="edit""#))

        let dimmed = PageMarkup.card(Self.card("a1", invalidated: true, configurable: false), role: "peek")
        #expect(dimmed.hasPrefix(#"<div class="card peek family-systemSmall invalidated" data-instance="a1""#))
        #expect(dimmed.contains(#"data-invalidated="">"#) && dimmed.contains(#"data-perform="\#(Self.escaped)" disabled>"#))
        #expect(!dimmed.contains(#"data-action="edit""#))
    }

    @Test func aStackShowsItsTopLargeTheOthersBesideItAndADotEach() {
        let stack = PageModel.Stack(name: Self.hostile, top: "b", instances: ["a", "b", "gone"], smartRotate: true)
        let html = PageMarkup.stack(stack, ["a": Self.card("a"), "b": Self.card("b")])
        #expect(html.hasPrefix(#"<article class="stack" data-stack="\#(Self.escaped)"><header><h2>\#(Self.escaped)</h2>"#))
        #expect(html.contains(#"data-action="smart-rotate" checked>"#))
        #expect(html.contains(#"<div class="stack-top"><div class="card top family-systemSmall" data-instance="b""#))
        #expect(html.contains(#"<div class="peeks"><div class="card peek family-systemSmall" data-instance="a""#))
        #expect(html.contains(#"<span class="dots"><span class="dot"></span><span class="dot on"></span><span class="dot"></span></span>"#))
        let empty = PageMarkup.stack(PageModel.Stack(name: "e", top: nil, instances: [], smartRotate: false), [:])
        #expect(empty.contains(#"<div class="card top placeholder">Empty stack</div>"#) && !empty.contains("peeks") && !empty.contains("checked"))
    }

    @Test func theClockReadsAsThePageWritesDates() {
        #expect(PageMarkup.when(Date(timeIntervalSince1970: 1_767_607_260.5)) == "2026-01-05 10:01:00 UTC")
        #expect(PageMarkup.when(Date(timeIntervalSince1970: 1_767_607_260)) == "2026-01-05 10:01:00 UTC")
    }

    @Test func theScriptsDataCannotEndItsElementAndReadsBackTheSame() throws {
        let value = JSONValue.object(["html": .string(#"</script><script>alert(1)</script><!-- & \<"#)])
        let json = String(decoding: try WidgetJSON.encoder.encode(value), as: UTF8.self)
        let safe = FirstPaint.scriptSafe(json)
        #expect(!safe.contains("<") && !safe.contains(">") && !safe.contains("&"))
        #expect(try WidgetJSON.decoder.decode(JSONValue.self, from: Data(safe.utf8)) == value)
    }

    @Test func withWidgetdAwayThePageHoldsANoticeAndNoData() {
        let first = FirstPaint(notice: DaemonCallError(status: 502, error: .init(code: -32000, message: "no <socket>")))
        let page = PageAssets.html(first)
        #expect(page.contains(#"<p id="daemon-notice" class="notice" role="status">widgetd is not reachable: no &lt;socket&gt;."#))
        #expect(!page.contains(#"id="initial""#))
        #expect(page.contains(#"<p id="empty" class="empty" hidden>"#))
    }
}

/// A template's output kept inside its card when the page is served as one document.
@Suite("Page markup: a template's HTML kept in its card")
struct HTMLFragmentTests {
    @Test func markupWrittenCorrectlyIsLeftByteForByte() throws {
        for html in [
            #"<div class="t"><b>x</b><br><img src="a>b" alt='</div>'></div>"#, "<style>.a > b { x: '</div>' }</style><p>one<p>two",
            #"<svg viewBox="0 0 1 1"><path d="M0 0"/><circle r="1"></circle></svg>"#, "<!-- <div> --><!----><!-->a < b & c</ x>",
            "<TABLE><tr><td>1</td></tr></TABLE><ul><li>a<li>b</ul>", "no markup at all",
        ] {
            #expect(HTMLFragment.contained(html) == html)
        }
        // The shipped examples' templates.
        let folder = Repository.url.appendingPathComponent("etc/widgetd/widgets.d/templates")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".mustache") }
        #expect(files.count >= 7)
        for file in files {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            #expect(HTMLFragment.contained(text) == text, "\(file)")
        }
    }

    @Test func whatItLeavesOpenIsClosedAndWhatItNeverOpenedIsNotClosed() {
        #expect(HTMLFragment.contained("<div><span>x") == "<div><span>x</span></div>")
        #expect(HTMLFragment.contained("x</div></section></main><div>y") == "x<div>y</div>")
        #expect(HTMLFragment.contained("<div><b>x</div>y") == "<div><b>x</div>y")
        #expect(HTMLFragment.contained("<table><tr><td>x") == "<table><tr><td>x</td></tr></table>")
        #expect(HTMLFragment.contained("<style>a{}") == "<style>a{}</style>")
        #expect(HTMLFragment.contained("<textarea></div>") == "<textarea></div></textarea>")
        #expect(HTMLFragment.contained("<!-- x") == "<!-- x-->")
        #expect(HTMLFragment.contained(#"ok <div class="a"#) == #"ok &lt;div class="a"#)
        #expect(HTMLFragment.contained("<b>a</b><plaintext>x") == "<b>a</b>&lt;plaintext>x")
    }
}
