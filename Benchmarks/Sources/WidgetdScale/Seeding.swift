import BenchSupport
import Foundation
import WidgetCore
import WidgetStore

/// What a seeded state dir holds; written as `widgetd-scale-seed.json` in the state dir once
/// seeding has finished, so a later run can reuse the (large) database.
struct SeedInfo: Codable, Equatable {
    var instances: Int
    var entries: Int
    var contentBytes: Int
    /// Sum of the byte sizes of every entry's content JSON.
    var contentTotalBytes: Int
    /// The instant the timelines are built around: entries at base - 1 h, base, base + 1 h, ...
    var base: Date
    var seedSeconds: Double
    var kind: String

    static let markerName = "widgetd-scale-seed.json"

    /// The clock to run the daemon on: virtual, 30 minutes after `base`, so every instance has
    /// a current entry and a pending entry change, whenever the database was seeded.
    var daemonClock: String { "virtual:" + ISO8601.string(from: base.addingTimeInterval(1800)) }

    static func read(stateDirectory: String) -> SeedInfo? {
        guard let data = FileManager.default.contents(atPath: stateDirectory + "/" + markerName) else { return nil }
        return try? JSONDecoder().decode(SeedInfo.self, from: data)
    }

    func write(stateDirectory: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(self).write(to: URL(fileURLWithPath: stateDirectory + "/" + Self.markerName))
    }
}

enum Seeder {
    /// The default place of a seeded state dir for these sizes under the work dir.
    static func defaultStateDirectory(workDirectory: String, instances: Int, entries: Int, contentBytes: Int) -> String {
        "\(workDirectory)/seed-\(instances)x\(entries)x\(contentBytes)/state"
    }

    /// Reuses `stateDirectory` when its marker says it holds exactly this; else seeds it afresh.
    static func ensure(stateDirectory: String, instances: Int, entries: Int, contentBytes: Int, batch: Int = 10_000) async throws
        -> SeedInfo
    {
        if let info = SeedInfo.read(stateDirectory: stateDirectory), info.instances == instances, info.entries == entries,
            info.contentBytes == contentBytes,
            FileManager.default.fileExists(atPath: stateDirectory + "/state.sqlite")
        {
            print("reusing seeded state \(stateDirectory) (\(instances) instances, seeded in \(String(format: "%.1f", info.seedSeconds)) s)")
            return info
        }
        return try await seed(
            stateDirectory: stateDirectory, instances: instances, entries: entries, contentBytes: contentBytes, batch: batch)
    }

    /// Writes `instances` instances of the push-only kind, each with a timeline of `entries`
    /// entries one hour apart whose content is `{"text":"..."}` of exactly `contentBytes` bytes
    /// (random letters), policy never, through `SQLiteStateStore.apply` in transactions of
    /// `batch` changes. Replaces whatever the state dir held.
    static func seed(stateDirectory: String, instances: Int, entries: Int, contentBytes: Int, batch: Int = 10_000) async throws
        -> SeedInfo
    {
        let manager = FileManager.default
        if manager.fileExists(atPath: stateDirectory) { try manager.removeItem(atPath: stateDirectory) }
        try manager.createDirectory(atPath: stateDirectory, withIntermediateDirectories: true)
        let store = try SQLiteStateStore(directory: stateDirectory)
        let base = coreEpoch
        // {"text":"<letters>"}: 11 bytes of JSON around the letters (WidgetJSON writes it compact).
        let letters = max(1, contentBytes - 11)
        let contentSize = letters + 11
        var random = SplitMix64(seed: 0xC0FFEE)
        let alphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 ".utf8)
        func text() -> String {
            var bytes = [UInt8](repeating: 0, count: letters)
            for index in 0..<letters { bytes[index] = alphabet[Int(random.below(UInt64(alphabet.count)))] }
            return String(decoding: bytes, as: UTF8.self)
        }

        let clock = ContinuousClock()
        let start = clock.now
        var changes: [StoreChange] = []
        changes.reserveCapacity(batch + 2)
        var lastReport = start
        for index in 0..<instances {
            let id = coreInstanceID(index)
            let instance = WidgetInstance(
                id: id, kind: Fixtures.pushKind, family: .systemSmall, configuration: [:],
                created: base.addingTimeInterval(-2 * 86400 + Double(index) / 1000))
            let timelineEntries = (0..<entries).map { entry in
                WidgetEntry(
                    date: base.addingTimeInterval(Double(entry - 1) * 3600), content: .object(["text": .string(text())]))
            }
            changes.append(.putInstance(instance))
            changes.append(.putTimeline(id, WidgetTimeline(entries: timelineEntries, policy: .never), receivedAt: base.addingTimeInterval(-3600)))
            if changes.count >= batch {
                try await store.apply(changes)
                changes.removeAll(keepingCapacity: true)
                if (clock.now - lastReport) > .seconds(10) {
                    lastReport = clock.now
                    print("  seeded \(index + 1) of \(instances) (\(String(format: "%.0f", (clock.now - start).coreSeconds)) s)")
                    fflush(nil)
                }
            }
        }
        try await store.apply(changes)
        let seconds = (clock.now - start).coreSeconds
        let info = SeedInfo(
            instances: instances, entries: entries, contentBytes: contentBytes, contentTotalBytes: instances * entries * contentSize,
            base: base, seedSeconds: seconds, kind: Fixtures.pushKind)
        try info.write(stateDirectory: stateDirectory)
        return info
    }
}
