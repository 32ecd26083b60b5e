import Foundation
import Testing
@testable import WidgetWeb

@Suite struct HTTPDateHeaderTests {
    @Test func formatsIMFFixdate() {
        // RFC 9110's own example instant.
        #expect(HTTPDateHeader.format(784_111_777) == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(HTTPDateHeader.format(1_798_761_599) == "Thu, 31 Dec 2026 23:59:59 GMT")
    }

    @Test func nowIsTheCurrentSecond() {
        let before = Int(Date().timeIntervalSince1970)
        let text = HTTPDateHeader.now()
        let after = Int(Date().timeIntervalSince1970)
        #expect((before...after).map(HTTPDateHeader.format).contains(text))
    }
}
