import Foundation
import Testing
@testable import WidgetWeb

/// The web host's answers to hostile input that need no daemon and no browser: query values as
/// browsers encode them, listeners, and the connection limit's count and refusal.
@Suite("Web host hostile input")
struct WebHostHostileInputTests {
    @Test func queryValuesAreDecodedAsFormsAndURLSearchParamsEncodeThem() throws {
        let query = try QueryValues("search=New+York&kind=a%2Bb&empty=&bare&caf%C3%A9=au+lait&search=second")
        #expect(query.string("search") == "New York")  // the first of a repeated key
        #expect(query.string("kind") == "a+b")
        #expect(query.string("empty") == "")
        #expect(query.string("bare") == "")
        #expect(query.string("café") == "au lait")
        #expect(query.string("missing") == nil)
        #expect(throws: QueryError.self) { try QueryValues("search=%E0%A4") }
        #expect(throws: QueryError.self) { try QueryValues("search=100%") }
        #expect(try QueryValues(nil).string("x") == nil)
    }

    @Test func numbersMustBeFiniteAndInTheirRange() throws {
        func hours(_ query: String?) throws -> Double {
            try QueryValues(query).number("hours", standard: 24, in: 0...168, excludingLower: true, "hours above 0")
        }
        #expect(try hours(nil) == 24)
        #expect(try hours("hours=1.5") == 1.5)
        #expect(try hours("hours=168") == 168)
        for bad in ["nan", "NaN", "1e999", "-1e999", "inf", "-1", "0", "168.01", "", "abc", "1,5"] {
            #expect(throws: QueryError.self, "hours=\(bad)") { try hours("hours=\(bad)") }
        }
        let limits = try QueryValues("limit=7")
        #expect(try limits.integer("limit", standard: 50, in: 1...100) == 7)
        #expect(try QueryValues(nil).integer("limit", standard: 50, in: 1...100) == 50)
        for bad in ["0", "101", "1.5", "1e3", "abc", "", "99999999999999999999"] {
            #expect(throws: QueryError.self, "limit=\(bad)") { try QueryValues("limit=\(bad)").integer("limit", standard: 50, in: 1...100) }
        }
    }

    @Test func listenersAreTCPAddressesOrUnixPaths() {
        #expect(Listener("127.0.0.1:8080") == .tcp(ListenAddress(host: "127.0.0.1", port: 8080)))
        #expect(Listener("unix:/run/widgetd-web/web.sock") == .unix(path: "/run/widgetd-web/web.sock"))
        #expect(Listener("unix:relative.sock") == .unix(path: "relative.sock"))
        #expect(Listener("unix:/run/web.sock")?.description == "unix:/run/web.sock")
        for bad in ["unix:", "unix:/" + String(repeating: "x", count: 120), "8080", "host:port"] {
            #expect(Listener(bad) == nil, "\(bad)")
        }
    }

    @Test func theLimitAdmitsUpToItsMaximumAndRefusesWithA503NamingTheSetting() {
        let limit = ConnectionLimit(maximum: 2, listener: "127.0.0.1:0")
        #expect(limit.admit())
        #expect(limit.admit())
        #expect(!limit.admit())
        limit.release()
        #expect(limit.admit())
        #expect(limit.refusal.hasPrefix("HTTP/1.1 503 Service Unavailable\r\n"))
        #expect(limit.refusal.contains("\r\nRetry-After: "))
        #expect(limit.refusal.contains("\r\nX-Frame-Options: DENY\r\n"))
        #expect(limit.refusal.contains("frame-ancestors 'none'"))
        #expect(limit.refusal.contains("--max-connections"))
        let head = limit.refusal.components(separatedBy: "\r\n\r\n")
        let length = head[0].split(separator: "\r\n").first { $0.hasPrefix("Content-Length: ") }.map { Int($0.dropFirst(16)) }
        #expect(length == head[1].utf8.count)
        // What the open-file limit must hold: every listener's connections, refusals and one
        // accept's batch, and the host's own.
        #expect(ConnectionLimit.descriptors(listeners: 2, connections: 1000) == 2 * (1000 + 32 + 4) + 64)
    }
}
