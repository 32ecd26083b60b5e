import Foundation
import GRDB
import Testing
@testable import WidgetStore
@testable import WidgetTestSupport

/// A new database is made from one schema text (`StoreSchema`), not by the migrations: it
/// must come out as the migrations make it, and an older database must still migrate.
@Suite struct StoreSchemaTests {
    /// Everything `sqlite_master` holds but where a page lies, in one order.
    static func schema(_ db: Database) throws -> [String] {
        try Row.fetchAll(db, sql: "SELECT type, name, tbl_name, sql FROM sqlite_master")
            .map { row in [row["type"], row["name"], row["tbl_name"], row["sql"] ?? "NULL"].joined(separator: " | ") as String }
            .sorted()
    }

    static func applied(_ db: Database) throws -> [String] {
        try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY identifier")
    }

    /// The schema and recorded migrations of a database migrated one migration at a time
    /// from the first.
    static func migratedStepByStep(in directory: String) throws -> (schema: [String], applied: [String]) {
        let pool = try DatabasePool(path: directory + "/stepped.sqlite")
        defer { try? pool.close() }
        for identifier in SQLiteStateStore.migrator.migrations {
            try SQLiteStateStore.migrator.migrate(pool, upTo: identifier)
        }
        return try pool.read { db in (try schema(db), try applied(db)) }
    }

    @Test func theTextStandsForEveryMigration() {
        #expect(StoreSchema.migrations == SQLiteStateStore.migrator.migrations,
                "a migration was added or renamed: StoreSchema's text and list must be brought to it")
    }

    @Test func aNewStateGetsTheSchemaTheMigrationsMake() async throws {
        let directory = temporaryDirectory("wss")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = try SQLiteStateStore(directory: directory)
        let (schema, applied) = try await store.pool.read { db in (try Self.schema(db), try Self.applied(db)) }
        store.close()
        let stepped = try Self.migratedStepByStep(in: directory)
        #expect(!schema.isEmpty)
        #expect(schema == stepped.schema)
        #expect(applied == stepped.applied)
    }

    @Test func theTextAloneMakesTheMigratedSchema() throws {
        let directory = temporaryDirectory("wss")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let pool = try DatabasePool(path: directory + "/made.sqlite")
        defer { try? pool.close() }
        #expect(try pool.writeWithoutTransaction { db in try StoreSchema.createIfEmpty(db) })
        let (schema, applied) = try pool.read { db in (try Self.schema(db), try Self.applied(db)) }
        let stepped = try Self.migratedStepByStep(in: directory)
        #expect(schema == stepped.schema)
        #expect(applied == stepped.applied)
    }

    @Test func aDatabaseWithTablesIsLeftToTheMigrator() throws {
        let directory = temporaryDirectory("wss")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let pool = try DatabasePool(path: directory + "/state.sqlite")
        defer { try? pool.close() }
        try SQLiteStateStore.migrator.migrate(pool, upTo: "v3-request-sequence")
        let before = try pool.read { db in try Self.schema(db) }
        #expect(try pool.writeWithoutTransaction { db in try StoreSchema.createIfEmpty(db) } == false)
        #expect(try pool.read { db in try Self.schema(db) } == before)
    }

    @Test func anOldStateStillMigratesToTheSameSchema() async throws {
        let directory = temporaryDirectory("wss")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        do {
            let pool = try DatabasePool(path: directory + "/state.sqlite")
            try SQLiteStateStore.migrator.migrate(pool, upTo: "v2-smart-stacks")
            try await pool.write { db in
                try db.execute(
                    sql: "INSERT INTO instance (id, kind, family, configuration, created) VALUES ('a', 'k', 'systemSmall', '{}', 0)")
            }
            try pool.close()
        }
        let store = try SQLiteStateStore(directory: directory)
        let (schema, applied) = try await store.pool.read { db in (try Self.schema(db), try Self.applied(db)) }
        #expect(try await store.load().instances.map(\.id) == ["a"])
        store.close()
        let stepped = try Self.migratedStepByStep(in: directory)
        #expect(schema == stepped.schema)
        #expect(applied == stepped.applied)
    }
}
