import Foundation
import Testing
@testable import WidgetDaemon

/// A provider's own text reaches the log and `timeline` as one printable line.
@Suite struct ProviderFailureTextTests {
    @Test func controlCharactersAreEscaped() {
        let failure = ProviderFailure.invalidAnswer("not JSON: line one\nforged line\r\u{1B}[31m\ttab")
        #expect(failure.description == #"invalid answer: not JSON: line one\nforged line\r\u{1b}[31m\ttab"#)
    }

    @Test func aLongReasonIsCut() {
        let failure = ProviderFailure.invalidAnswer(String(repeating: "x", count: 10_000))
        #expect(failure.description.count == "invalid answer: ".count + 500)
    }

    @Test func theStderrTailIsItsLastLineEscaped() {
        let failure = ProviderFailure.exited(3, stderr: "first\nsecond \u{7}bell\n")
        #expect(failure.description == #"exited with status 3: second \u{7}bell"#)
    }

    @Test func notJSONSaysWhere() {
        let text = TimelineAnswer.notJSON(Data(#"{"entries": [1, 2,, 3]}"#.utf8))
        #expect(text == #"not JSON (line 1, column 19: expected a value, found ','): {"entries": [1, 2,, 3]}"#)
    }
}

extension ProviderFailureTextTests {
    /// A provider that wrote NULs (`head -c N /dev/zero >&2`) and then its message: the end of
    /// the line is shown.
    @Test func aLongLastLineShowsItsEnd() {
        var data = Data(repeating: 0, count: 4073)
        data.append(contentsOf: Array("stderr flood done\n".utf8))
        let failure = ProviderFailure.exited(7, stderr: String(decoding: data, as: UTF8.self))
        let nuls = String(repeating: "\\u{0}", count: 300 - 17)
        #expect(failure.description == "exited with status 7: …" + nuls + "stderr flood done")
    }
}
