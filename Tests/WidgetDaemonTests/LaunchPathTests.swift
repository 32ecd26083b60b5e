import Foundation
import Synchronization
import Testing
import WidgetCore
@testable import WidgetDaemon

/// The provider request written without JSONEncoder is byte for byte what it wrote.
@Suite struct ProviderRequestJSONTests {
    static let configurations: [[String: JSONValue]] = [
        [:],
        ["city": .string("Zürich \"x\" \\ / \u{1}")],
        ["b": .integer(1), "A": .integer(2), "a10": .number(0.5), "a9": .number(2), "a": .null, "Ä": .bool(true), "_": .string("")],
        ["n": .number(1e-7), "big": .number(1e300), "neg": .integer(-5), "third": .number(1.0 / 3),
         "list": .array([.null, .bool(false), .object(["z": .integer(1), "Z": .array([]), "z2": .integer(2), "z10": .integer(3)])])],
    ]

    @Test func requestsMatchTheEncoder() throws {
        for (index, configuration) in Self.configurations.enumerated() {
            let members = (0...index).map { member in
                WidgetInstance(
                    id: member == 1 ? "a\"b\\c" : String(format: "%08x", member * 7919), kind: "com.example.k/\(member)",
                    family: WidgetFamily.allCases[member % WidgetFamily.allCases.count],
                    configuration: Self.configurations[member % Self.configurations.count].merging(configuration) { $1 },
                    created: Date(timeIntervalSince1970: 0))
            }
            for now in [Date(timeIntervalSince1970: 1_767_600_000), Date(timeIntervalSince1970: 1_767_600_000.255)] {
                let request = ProviderRequest(verb: "timeline", members: members, now: now)
                let expected = String(decoding: try WidgetJSON.encoder.encode(request), as: UTF8.self)
                #expect(String(decoding: request.json(), as: UTF8.self) == expected)
            }
        }
    }

    /// Fields a request leaves out are left out of its JSON too, as the encoder leaves them.
    @Test func absentFieldsMatchTheEncoder() throws {
        let now = Date(timeIntervalSince1970: 1_767_600_000)
        var bare = ProviderRequest(verb: nil, kind: "k", family: .systemSmall, configuration: nil, now: now)
        var requests = [bare]
        bare.instances = [ProviderRequest.Member(instance: nil, kind: "k", family: .accessoryInline, configuration: nil)]
        requests.append(bare)
        requests.append(ProviderRequest(verb: "snapshot", kind: "k", family: .systemLarge, configuration: ["a": .integer(1)], now: now, isPreview: true))
        for request in requests {
            let expected = String(decoding: try WidgetJSON.encoder.encode(request), as: UTF8.self)
            #expect(String(decoding: request.json(), as: UTF8.self) == expected)
        }
    }
}

/// The launch threads: at most the cap at once, the rest in the order they came.
@Suite struct LaunchThreadsTests {
    /// Jobs that tell when they start and end when told.
    final class Jobs: Sendable {
        let started = Mutex<[Int]>([])
        private let starts = DispatchSemaphore(value: 0)
        private let releases: [DispatchSemaphore]

        init(count: Int) {
            releases = (0..<count).map { _ in DispatchSemaphore(value: 0) }
        }

        func job(_ index: Int) -> @Sendable () -> Void {
            { [self] in
                started.withLock { $0.append(index) }
                starts.signal()
                _ = releases[index].wait(timeout: .now() + 30)
            }
        }

        func release(_ index: Int) { releases[index].signal() }

        /// Waits (at most 30 s) for `count` more jobs to start.
        func waitForStarts(_ count: Int) throws {
            for _ in 0..<count {
                try #require(starts.wait(timeout: .now() + 30) == .success, "a launch job did not start within 30 s")
            }
        }
    }

    /// Jobs running at once may record their starts in either order: what holds is that the
    /// jobs started are always the first ones queued, never more than the cap at once.
    @Test func runsAtMostTheCapInOrder() throws {
        let threads = LaunchThreads(limit: 2, name: "test-launch")
        let jobs = Jobs(count: 5)
        for index in 0..<5 { threads.run(jobs.job(index)) }
        try jobs.waitForStarts(2)
        #expect(Set(jobs.started.withLock { $0 }) == [0, 1])
        jobs.release(1)
        try jobs.waitForStarts(1)
        #expect(jobs.started.withLock { $0 }.count == 3)
        #expect(Set(jobs.started.withLock { $0 }) == [0, 1, 2])
        jobs.release(0)
        jobs.release(2)
        try jobs.waitForStarts(2)
        #expect(Set(jobs.started.withLock { $0 }) == [0, 1, 2, 3, 4])
        jobs.release(3)
        jobs.release(4)
    }

    @Test func aRaisedCapStartsWaitingJobsAtOnce() throws {
        let threads = LaunchThreads(limit: 1, name: "test-launch")
        let jobs = Jobs(count: 3)
        for index in 0..<3 { threads.run(jobs.job(index)) }
        try jobs.waitForStarts(1)
        #expect(jobs.started.withLock { $0 } == [0])
        threads.setLimit(3)
        try jobs.waitForStarts(2)
        #expect(Set(jobs.started.withLock { $0 }) == [0, 1, 2])
        for index in 0..<3 { jobs.release(index) }
    }
}
