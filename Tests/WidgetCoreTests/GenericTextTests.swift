import Testing
import WidgetCore
import WidgetDisplay

/// What a host shows of an entry whose kind has no template.
@Suite("Generic text")
struct GenericTextTests {
    @Test func aPreferredKeyIsTheLine() {
        let content = JSONValue.object(["value": .integer(3), "title": .string("Standup"), "text": .null])
        // `text` is null, so the next preferred key with a plain value wins.
        #expect(GenericText.text(content, displayName: "Calendar") == "Standup")
        #expect(GenericText.text(.object(["label": .number(2.5)]), displayName: "X") == "2.5")
    }

    @Test func otherwiseThePlainFieldsInKeyOrderThenTheDisplayName() {
        let content = JSONValue.object(["load5": .number(0.5), "load1": .number(1), "history": .array([.integer(1)])])
        #expect(GenericText.text(content, displayName: "Load") == "load1 1 · load5 0.5")
        #expect(GenericText.tooltip(content, displayName: "Load") == "Load\nload1 1\nload5 0.5")
        #expect(GenericText.text(.object(["items": .array([])]), displayName: "Shortcuts") == "Shortcuts")
        #expect(GenericText.text(.null, displayName: "Empty") == "Empty")
        #expect(GenericText.text(.string("just text"), displayName: "T") == "just text")
    }

    @Test func aLongOrMultiLineValueIsOneClippedLine() {
        let long = String(repeating: "a", count: 100)
        let line = GenericText.text(.object(["text": .string(long)]), displayName: "T")
        #expect(line.count == GenericText.lineLimit && line.hasSuffix("…"))
        #expect(GenericText.text(.object(["text": .string("one\ntwo")]), displayName: "T") == "one two")
    }

    @Test func markupEscapingCoversWhatPangoAndHTMLNeed() {
        #expect(GenericText.markupEscaped("a <b> & c") == "a &lt;b&gt; &amp; c")
        #expect(GenericText.markupEscaped("plain") == "plain")
    }
}
