import Foundation
import GRDB
import Synchronization
import WidgetCore

/// `StateStore` on SQLite through GRDB: WAL journal, `synchronous = FULL` so an answered
/// request survives a crash or power loss, schema evolved by migrations.
///
/// Opened in two steps, so that a start that fails leaves the file byte for byte as it was:
/// the state is read through a read-only connection first (a schema that needs a migration is
/// migrated in a copy in memory), and the file is opened for writing (WAL set up, migrations
/// run) only by `openForWriting()`, which the daemon calls once nothing else can stop its
/// start. Changes submitted before then wait for it.
public final class SQLiteStateStore: StateStore {
    public let path: String
    /// The writer and its readers, once opened for writing.
    private let opened = PoolBox()
    private let commits: GroupCommit<[StoreStatement]>
    /// What the read-only look at start-up read, until the first `load()` takes it.
    private let preloaded: Mutex<PersistedState?>
    /// Log rows that did not decode: those seen, and those not yet handed to `takeSkippedRows`.
    private let skipped = Mutex<(seen: Set<Int64>, untold: [QuarantinedRow])>(([], []))

    /// The pool, once the file is opened for writing.
    var pool: DatabasePool {
        get throws {
            try opened.pool(path: path)
        }
    }

    /// The pool, shared with the group commit's writer (made before `self` is).
    private final class PoolBox: Sendable {
        let value = Mutex<DatabasePool?>(nil)

        func pool(path: String) throws -> DatabasePool {
            guard let pool = value.withLock({ $0 }) else {
                throw StoreError("\(path) is not open for writing yet (widgetd is starting)")
            }
            return pool
        }
    }

    /// Opens `state.sqlite` in `directory` (created if needed): reads it without changing it,
    /// then, unless `deferWriting`, opens it for writing at once. Throws a `StoreError` whose
    /// kind tells a state directory that cannot be written from a damaged database; a damaged
    /// file is never modified, moved or deleted here.
    public init(directory: String, deferWriting: Bool = false) throws {
        let manager = FileManager.default
        do {
            try manager.createDirectory(
                atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            let cause = (error as NSError).userInfo[NSUnderlyingErrorKey].flatMap { ($0 as? NSError)?.code }
                .map { StoreError.errnoName(Int32($0)) } ?? Self.creationFault(directory) ?? error.localizedDescription
            throw StoreError("cannot create state directory \(directory): \(cause)", kind: .notWritable)
        }
        // access(2) names the cause: EROFS for a read-only mount (even for root), EACCES for modes.
        guard access(directory, W_OK | X_OK) == 0 else {
            throw StoreError(
                "state directory \(directory) is not writable (\(StoreError.errnoName(errno)))", kind: .notWritable)
        }
        let path = directory + "/state.sqlite"
        self.path = path
        for file in [path, path + "-wal", path + "-shm"] where manager.fileExists(atPath: file) {
            guard access(file, R_OK | W_OK) == 0 else {
                throw StoreError("\(file) is not writable (\(StoreError.errnoName(errno)))", kind: .notWritable)
            }
        }
        // SQLite may open a full file system without complaint (a WAL file kept from before
        // takes the first writes) and then refuse the first change: a daemon that could not
        // keep what it acknowledges stops now, with the exit status systemd does not retry.
        if StoreError.isFull(directoryOf: path) {
            throw StoreError(
                "the file system holding \(path) is full (ENOSPC, no free blocks): free some space, then start widgetd again",
                kind: .notWritable, cause: "full")
        }
        // Read first, write after: opening a pool writes to the file (GRDB creates and drops
        // a table, and the last connection checkpoints), so a damaged file must be found
        // before that. The state read here is what the first `load()` returns; a state
        // directory without a database holds the empty state.
        let early = manager.fileExists(atPath: path) ? try Self.readOnlyLoad(path: path) : PersistedState()
        preloaded = Mutex(early)
        commits = GroupCommit(held: true) { [opened] group in try Self.write(group, to: try opened.pool(path: path), path: path) }
        if !deferWriting || early == nil { try openForWriting() }
    }

    /// Why `directory` could not be made, when Foundation does not say: the first of its
    /// folders that exists and is not a directory (ENOTDIR), or the errno of making the first
    /// one missing.
    private static func creationFault(_ directory: String) -> String? {
        var path = ""
        for component in directory.split(separator: "/") {
            path += "/" + component
            var info = stat()
            if stat(path, &info) == 0 {
                if info.st_mode & S_IFMT != S_IFDIR { return "\(StoreError.errnoName(ENOTDIR)): \(path) is not a directory" }
                continue
            }
            return mkdir(path, 0o700) == 0 ? nil : "\(StoreError.errnoName(errno)) (making \(path))"
        }
        return nil
    }

    /// Opens the file for writing: WAL mode, `synchronous = FULL`, migrations. Changes
    /// submitted before are written from now on. Throws a `StoreError` as `init` does.
    public func openForWriting() throws {
        guard opened.value.withLock({ $0 == nil }) else { return }
        // Here, not at the read: a start that fails must leave the state directory as it was.
        try StateFileModes.restrict(directory: (path as NSString).deletingLastPathComponent, database: path)
        var configuration = Configuration()
        configuration.busyMode = .timeout(5)
        do {
            let pool = try DatabasePool(path: path, configuration: configuration)
            // Migrated while GRDB's `synchronous = NORMAL` holds: each migration commits
            // without syncing the WAL (on a new file that was one sync per migration, most of
            // a first start's time). Nothing is acknowledged before this, the WAL keeps the
            // file consistent whatever a crash cuts, and the first synced commit after it
            // carries the migrations' frames to the disk with its own. A new database gets
            // the whole schema in one transaction (`StoreSchema`); the migrator then has
            // nothing left to run but what a later migration adds.
            _ = try pool.writeWithoutTransaction { db in try StoreSchema.createIfEmpty(db) }
            try Self.migrator.migrate(pool)
            // NORMAL does not sync the WAL at commit: FULL on the writer, the only connection
            // that commits, so an answered change is on disk.
            try pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA synchronous = FULL") }
            opened.value.withLock { $0 = pool }
        } catch {
            throw Self.openFailure(error, path: path)
        }
        commits.release()
    }

    /// Closes the database once every write submitted has been made: the last connection folds
    /// the WAL into the file, so the next start reads one file and needs no room to recover.
    public func close() {
        commits.waitUntilWritten()
        guard let pool = opened.value.withLock({ $0 }) else { return }
        // The pool closes its writer before its read-only readers, so the last connection to
        // close cannot checkpoint: fold the WAL in and truncate it here (best effort: on a
        // full disk the file cannot grow to take it, and the WAL stays for the next start).
        try? pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
        try? pool.close()
    }

    /// The state a state directory holds, read through a read-only connection that changes
    /// nothing, even while widgetd runs on it (`widgetctl simulate --state`).
    public static func snapshot(directory: String) throws -> PersistedState {
        let path = directory + "/state.sqlite"
        guard FileManager.default.fileExists(atPath: path) else { throw StoreError("no state database at \(path)") }
        guard let state = try readOnlyLoad(path: path) else {
            throw StoreError("cannot read \(path) without changing it (it cannot be opened read-only)")
        }
        return state
    }

    /// The state read through a read-only connection, or nil when the file cannot be opened
    /// read-only (the read-write open that follows says why). A schema older than this
    /// program's is migrated in a copy in memory, so that the file is migrated only once the
    /// start cannot fail. Throws only for a damaged file: not a database, damaged pages, tables
    /// missing that its recorded migrations made, or rows a migration cannot read.
    static func readOnlyLoad(path: String) throws -> PersistedState? {
        var configuration = Configuration()
        configuration.readonly = true
        // Every page is read once: mapped, they are not copied from the page cache first.
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA mmap_size = 1099511627776") }
        let queue: DatabaseQueue
        do {
            queue = try DatabaseQueue(path: path, configuration: configuration)
        } catch {
            let failure = openFailure(error, path: path)
            if failure.kind == .corrupt { throw failure }
            return nil
        }
        defer { retire(queue) }
        var step = "read"
        do {
            if let state = try queue.read({ db in try migrator.hasCompletedMigrations(db) ? try loadState(db, path: path) : nil }) {
                return state
            }
            step = "migrate"
            let copy = try DatabaseQueue()
            defer { retire(copy) }
            try queue.backup(to: copy)
            try migrator.migrate(copy)
            step = "read"
            return try copy.read { db in try loadState(db, path: path) }
        } catch {
            let failure = openFailure(error, path: path)
            switch failure.kind {
            case .corrupt: throw failure
            case .notWritable: return nil
            case .other:
                // Busy or locked (another program holds the file), out of memory...: the
                // read-write open that follows says why, and a restart may well succeed.
                if let error = error as? DatabaseError, error.resultCode != .SQLITE_ERROR { return nil }
                // The file opened and is a database: what could not be read is its content
                // (a table or column missing, a row a migration cannot decode).
                let what = step == "migrate" ? "its rows cannot be migrated to this widgetd's schema" : "its tables are not widgetd's"
                throw openFailure(
                    StoreError("\(path) is damaged: \(what) (\(Self.decodingFault(error)))", kind: .corrupt, cause: "damaged"),
                    path: path)
            }
        }
    }

    /// The connections `readOnlyLoad` has finished with: closed, and kept for the life of the
    /// process instead of released. Why: GRDB marks each connection's dispatch queue with a
    /// queue-specific value, and libdispatch runs the destructors of a released queue's
    /// specific values on its global pool. That starts the pool, whose monitor then wakes the
    /// daemon every second for good. One start keeps one or two.
    private static let retired = Mutex<[DatabaseQueue]>([])

    /// Closes `queue`'s connection (its file descriptors and mapping go) and keeps the object.
    private static func retire(_ queue: DatabaseQueue) {
        try? queue.close()
        retired.withLock { $0.append(queue) }
    }

    /// Why the state could not be opened or read, with what the operator can do about it.
    static func openFailure(_ error: any Error, path: String) -> StoreError {
        var described = StoreError.describing(error, path: path)
        switch described.kind {
        case .corrupt:
            described.description = """
                state database \(described.description). widgetd has not modified it. To start with an \
                empty state, move it aside together with its -wal and -shm files (e.g. to \(path).corrupt, \
                \(path)-wal.corrupt, ...); 'sqlite3 \(path).corrupt .recover' may save part of it
                """
        case .notWritable, .other:
            described.description = "cannot open state database: \(described.description)"
        }
        return described
    }

    /// A change of more statements than this is written in a transaction of its own, without
    /// a savepoint (see `write`).
    static let largeChange = 64

    /// Writes a group of `apply` calls in order. Calls that share a transaction each get a
    /// savepoint, so that one whose statements fail is rolled back alone and gets its error
    /// while the others commit. A call alone in its group, or a large one, is written in a
    /// transaction of its own without a savepoint: inside one, SQLite keeps every statement's
    /// own journal until the savepoint ends, which for a launch's thousands of timelines was
    /// hundreds of MB written to the sub-journal; and alone, its transaction rolls back just
    /// as its savepoint would. Errors name their cause (a full disk, a read-only file system,
    /// an I/O error).
    static func write(
        _ group: [[StoreStatement]], to pool: DatabasePool, path: String
    ) throws -> [Result<Void, any Error>] {
        var outcomes: [Result<Void, any Error>] = []
        outcomes.reserveCapacity(group.count)
        var start = group.startIndex
        while start < group.endIndex {
            if group.count == 1 || group[start].count > largeChange {
                outcomes.append(writeAlone(group[start], to: pool, path: path))
                start += 1
                continue
            }
            var end = start + 1
            while end < group.endIndex, group[end].count <= largeChange { end += 1 }
            do {
                outcomes += try writeTogether(group[start..<end], to: pool, path: path)
            } catch {
                outcomes += Array(repeating: .failure(error), count: end - start)
            }
            start = end
        }
        return outcomes
    }

    /// One call in a transaction of its own: all of it commits, or none of it.
    private static func writeAlone(
        _ statements: [StoreStatement], to pool: DatabasePool, path: String
    ) -> Result<Void, any Error> {
        pool.writeWithoutTransaction { db in
            do {
                try db.inTransaction(.immediate) {
                    try StoreStatement.run(statements, in: db)
                    return .commit
                }
                return .success(())
            } catch {
                // A statement failed or the commit did (the WAL append or its fsync): GRDB has
                // rolled back.
                return .failure(StoreError.describing(error, path: path, systemErrno: db.lastSystemErrno))
            }
        }
    }

    /// Calls that share one transaction, each inside its own savepoint. Throws when the
    /// transaction as a whole could not commit.
    private static func writeTogether(
        _ group: ArraySlice<[StoreStatement]>, to pool: DatabasePool, path: String
    ) throws -> [Result<Void, any Error>] {
        try pool.writeWithoutTransaction { db in
            var outcomes: [Result<Void, any Error>] = []
            outcomes.reserveCapacity(group.count)
            do {
                try db.inTransaction(.immediate) {
                    for statements in group {
                        // Prepared once: parsing the two statements again for every change cost
                        // as much as the change's own inserts.
                        try db.cachedStatement(sql: "SAVEPOINT change").execute()
                        do {
                            try StoreStatement.run(statements, in: db)
                            try db.cachedStatement(sql: "RELEASE change").execute()
                            outcomes.append(.success(()))
                        } catch {
                            let described = StoreError.describing(error, path: path, systemErrno: db.lastSystemErrno)
                            // SQLite rolls the whole transaction back by itself on some errors
                            // (SQLITE_FULL, SQLITE_IOERR): then the calls before this one are
                            // undone too, and every caller of the group must hear so.
                            guard db.isInsideTransaction else { throw described }
                            try db.execute(sql: "ROLLBACK TO change")
                            try db.execute(sql: "RELEASE change")
                            outcomes.append(.failure(described))
                        }
                    }
                    return .commit
                }
            } catch {
                // The commit itself failed (the WAL append or its fsync): GRDB has rolled back.
                throw StoreError.describing(error, path: path, systemErrno: db.lastSystemErrno)
            }
            return outcomes
        }
    }

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.create(table: "instance") { table in
                table.primaryKey("id", .text)
                table.column("kind", .text).notNull()
                table.column("family", .text).notNull()
                table.column("configuration", .text).notNull()
                table.column("created", .double).notNull()
            }
            try db.create(table: "timeline") { table in
                table.primaryKey("instance", .text).references("instance", onDelete: .cascade)
                table.column("json", .text).notNull()
                table.column("receivedAt", .double).notNull()
            }
            try db.create(table: "reload") { table in
                table.autoIncrementedPrimaryKey("rowid")
                table.column("instance", .text).notNull().references("instance", onDelete: .cascade).indexed()
                table.column("date", .double).notNull()
                table.column("reason", .text).notNull()
                table.column("budgeted", .boolean).notNull()
            }
            try db.create(table: "request") { table in
                table.primaryKey("instance", .text).references("instance", onDelete: .cascade)
                table.column("reason", .text).notNull()
                table.column("wanted", .double).notNull()
            }
        }
        migrator.registerMigration("v2-smart-stacks") { db in
            try db.create(table: "stack") { table in
                table.primaryKey("name", .text)
                // The whole StackState as JSON: members, top, user choice, hold, rotations.
                table.column("state", .text).notNull()
            }
            try db.create(table: "donation") { table in
                table.autoIncrementedPrimaryKey("rowid")
                table.column("id", .text).indexed()
                table.column("groupId", .text).indexed()
                table.column("json", .text).notNull()
                table.column("date", .double).notNull()
            }
            try db.create(table: "decision") { table in
                table.autoIncrementedPrimaryKey("rowid")
                table.column("stack", .text).notNull().indexed()
                table.column("date", .double).notNull()
                table.column("json", .text).notNull()
            }
            try db.create(table: "relevance") { table in
                table.primaryKey("instance", .text).references("instance", onDelete: .cascade)
                table.column("json", .text).notNull()
            }
        }
        migrator.registerMigration("v3-request-sequence") { db in
            try db.alter(table: "request") { table in
                table.add(column: "sequence", .integer).notNull().defaults(to: 0)
            }
        }
        migrator.registerMigration("v4-visibility") { db in
            try db.create(table: "visibility") { table in
                table.primaryKey("instance", .text).references("instance", onDelete: .cascade)
                table.column("lastVisible", .double).notNull()
            }
        }
        migrator.registerMigration("v5-entry-rows") { db in
            // Timelines as rows, not JSON documents: a restart reads them without a JSON parser
            // and keeps each entry's content as its text (see WidgetEntry).
            try db.rename(table: "timeline", to: "timeline_v1")
            try db.create(table: "timeline") { table in
                table.primaryKey("instance", .text).references("instance", onDelete: .cascade)
                table.column("policy", .text).notNull()
                table.column("policyDate", .double)
                table.column("receivedAt", .double).notNull()
            }
            try db.execute(sql: """
                CREATE TABLE entry (
                    instance TEXT NOT NULL REFERENCES instance(id) ON DELETE CASCADE,
                    position INTEGER NOT NULL,
                    date DOUBLE NOT NULL,
                    content TEXT NOT NULL,
                    score DOUBLE,
                    duration DOUBLE,
                    PRIMARY KEY (instance, position)
                ) WITHOUT ROWID
                """)
            for row in try Row.fetchAll(db, sql: "SELECT instance, json, receivedAt FROM timeline_v1") {
                let text: String = row["json"]
                let timeline = try WidgetJSON.decoder.decode(WidgetTimeline.self, from: Data(text.utf8))
                for (sql, arguments) in timelineStatements(row["instance"], timeline, receivedAt: row["receivedAt"]) {
                    try db.execute(sql: sql, arguments: arguments)
                }
            }
            try db.drop(table: "timeline_v1")
        }
        migrator.registerMigration("v6-relevance-rows", migrate: migrateRelevanceToRows)
        migrator.registerMigration("v7-reload-date-index") { db in
            // Every launch prunes reload history past the budget window by date; without an
            // index that DELETE read the whole table each time.
            try db.create(index: "reload_date", on: "reload", columns: ["date"])
        }
        migrator.registerMigration("v8-donation-date-index") { db in
            // Retention drops the oldest donations by date along with each new one beyond
            // max-donations; the index finds them without sorting the table every time.
            try db.create(index: "donation_date", on: "donation", columns: ["date"])
        }
        migrator.registerMigration("v9-donation-lookups") { db in
            // Every donation wrote its id and group into an index of their own, pages apart
            // (groups spread over the index): more than half of the pages a donation's commit
            // wrote. Deleting by id or group, which apps do rarely, now reads the table, which
            // retention keeps at max-donations rows.
            try db.drop(index: "donation_on_id")
            try db.drop(index: "donation_on_groupId")
        }
        migrator.registerMigration("v10-fresh-relevance") { db in
            // Relevance a provider gave since the instance's timeline (invalidateRelevance);
            // a new timeline deletes it.
            try createSampleTable(db, "fresh_relevance")
        }
        migrator.registerMigration("v11-entry-actions") { db in
            // An entry's actions as JSON text; NULL for the many entries without any.
            try db.alter(table: "entry") { table in
                table.add(column: "actions", .text)
            }
        }
        migrator.registerMigration("v12-relevance-clues") { db in
            // The context clues of an entry's relevance (`when`) as JSON text, and of the
            // samples kept from it; NULL for relevance without clues. The regions are the
            // provider's; where the machine is, is never stored.
            for table in ["entry", "relevance_sample", "fresh_relevance"] {
                try db.alter(table: table) { $0.add(column: "clues", .text) }
            }
        }
        return migrator
    }

    /// `timelineRows` as plain statements, for a migration (its instances all exist, so the
    /// check runs as a query whose answer nothing needs).
    static func timelineStatements(_ id: InstanceID, _ timeline: WidgetTimeline, receivedAt: Double) -> [(String, StatementArguments)] {
        timelineRows(id, timeline, receivedAt: receivedAt).map { ($0.sql, $0.arguments) }
    }

    /// A timeline as its head row and entry rows, replacing whatever the instance had; none
    /// for an instance removed meanwhile (the removal won). Each row is written by a
    /// statement of its own, and the head row by an upsert, not a replace (a delete and an
    /// insert): the rows of a launch's answer then give SQLite no statement journal to keep.
    static func timelineRows(_ id: InstanceID, _ timeline: WidgetTimeline, receivedAt: Double) -> [StoreStatement] {
        let (policy, policyDate): (String, Double?) = switch timeline.policy {
        case .atEnd: ("atEnd", nil)
        case .never: ("never", nil)
        case .after(let date): ("after", date.timeIntervalSince1970)
        }
        let entries = timeline.entries
        var statements: [StoreStatement] = [
            .instanceExists(id, covering: 2 + entries.count),
            StoreStatement(
                """
                INSERT INTO timeline (instance, policy, policyDate, receivedAt) VALUES (?, ?, ?, ?)
                ON CONFLICT(instance) DO UPDATE SET policy = excluded.policy, policyDate = excluded.policyDate,
                    receivedAt = excluded.receivedAt
                """,
                [id, policy, policyDate, receivedAt]
            ),
            StoreStatement("DELETE FROM entry WHERE instance = ?", [id]),
        ]
        let (haveActions, haveClues) = (entries.haveActions, entries.haveClues)
        // The same text for every row of a timeline: made once, not once a row.
        let insert = entryInsert(actions: haveActions, clues: haveClues)
        statements.reserveCapacity(statements.count + entries.count)
        for (position, entry) in entries.enumerated() {
            var arguments: StatementArguments = [
                id, position, entry.date.timeIntervalSince1970, entry.contentJSON, entry.relevance?.score, entry.relevance?.duration,
            ]
            if haveActions {
                arguments += [entries.withActionsJSON(at: position) { $0.isEmpty ? nil : String(decoding: $0, as: UTF8.self) }]
            }
            if haveClues {
                arguments += [Self.cluesText(entry.relevance?.when)]
            }
            statements.append(StoreStatement(insert, arguments))
        }
        return statements
    }

    /// The insert of an entry row. Most timelines have no actions and no clues: their rows
    /// leave those columns out (NULL), which is also how the v5 migration, older than the
    /// columns, writes them.
    private static func entryInsert(actions: Bool, clues: Bool) -> String {
        switch (actions, clues) {
        case (false, false): plainEntryInsert
        case (true, false): entryInsertWithActions
        case (false, true): entryInsertWithClues
        case (true, true): entryInsertWithActionsAndClues
        }
    }

    private static let plainEntryInsert = entryInsertText(["instance", "position", "date", "content", "score", "duration"])
    private static let entryInsertWithActions = entryInsertText(["instance", "position", "date", "content", "score", "duration", "actions"])
    private static let entryInsertWithClues = entryInsertText(["instance", "position", "date", "content", "score", "duration", "clues"])
    private static let entryInsertWithActionsAndClues = entryInsertText(
        ["instance", "position", "date", "content", "score", "duration", "actions", "clues"])

    private static func entryInsertText(_ columns: [String]) -> String {
        """
        INSERT INTO entry (\(columns.joined(separator: ", "))) VALUES (\(Array(repeating: "?", count: columns.count).joined(separator: ", ")))
        """
    }

    /// Context clues as the `clues` columns hold them: JSON text, NULL for none.
    static func cluesText(_ when: [ClueAlternative]?) -> String? {
        guard let when, let data = try? WidgetJSON.encoder.encode(when) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    /// The `clues` column read back; nil for NULL, and thrown for text that does not decode.
    static func clues(_ text: UnsafeRawBufferPointer?) throws -> [ClueAlternative]? {
        guard let text, !text.isEmpty else { return nil }
        return try WidgetJSON.decoder.decode([ClueAlternative].self, from: Data(text))
    }

    public func load() async throws -> PersistedState {
        if let state = preloaded.withLock({ state -> PersistedState? in
            defer { state = nil }
            return state
        }) {
            return state
        }
        do {
            let path = self.path
            return try await pool.read { db in try Self.loadState(db, path: path) }
        } catch {
            throw Self.openFailure(error, path: path)
        }
    }

    /// Every row the daemon keeps in memory, read in one transaction. A row that does not
    /// decode is left out and listed in `quarantined` (its instance, if any, in
    /// `failedInstances`); the file is not changed.
    static func loadState(_ db: Database, path: String) throws -> PersistedState {
        var state = PersistedState()
        var quarantine = Quarantine(path: path)
        (state.instances, state.timelines) = try loadInstances(db, path: path, quarantine: &quarantine)
        let failed = Set(quarantine.failed.map(\.id))
        let reloads = try ColumnReader(db, sql: "SELECT rowid, instance, date FROM reload WHERE budgeted ORDER BY date")
        while try reloads.next() {
            guard let date = reloads.date(2) else {
                quarantine.row(
                    "reload", key: "rowid = \(reloads.string(0))", reason: "date is not a number within years 1 to 9999",
                    advice: "not counted against the reload budget; it goes with its instance, or delete it")
                continue
            }
            state.budgetedReloads[reloads.string(1), default: []].append(Date(timeIntervalSince1970: date))
        }
        let requests = try ColumnReader(db, sql: "SELECT instance, reason, wanted, sequence FROM request")
        while try requests.next() {
            let id = requests.string(0)
            guard !failed.contains(id) else { continue }
            let reason = ReloadReason(rawValue: requests.string(1))
            guard let reason, let wanted = requests.date(2), requests.isNumber(3) else {
                quarantine.row(
                    "request", key: "instance = \(Quarantine.sqlText(id))",
                    reason: reason == nil ? "reason \(Quarantine.shown(requests.string(1))) is not a reload reason" : "wanted or sequence is not a number",
                    advice: "the reload it asks for is not made; the instance's next request replaces it, or delete it")
                continue
            }
            state.requests[id] = StoredRequest(
                reason: reason, wanted: Date(timeIntervalSince1970: wanted), sequence: requests.int64(3))
        }
        let stacks = try ColumnReader(db, sql: "SELECT name, state FROM stack ORDER BY name")
        while try stacks.next() {
            let name = stacks.string(0)
            do {
                state.stacks.append(try stacks.withText(1) { try WidgetJSON.decoder.decode(StackState.self, from: Data($0)) })
            } catch {
                quarantine.row(
                    "stack", key: "name = \(Quarantine.sqlText(name))", reason: "state is not a stack (\(decodingFault(error)))",
                    advice: "the stack is not loaded (its instances are, outside it); 'widgetctl stack create' with its name "
                        + "replaces it, or fix it and restart widgetd")
            }
        }
        let donations = try ColumnReader(db, sql: "SELECT rowid, json FROM donation ORDER BY date, rowid")
        while try donations.next() {
            do {
                state.donations.append(try donations.withText(1) { try WidgetJSON.decoder.decode(Donation.self, from: Data($0)) })
            } catch {
                quarantine.row(
                    "donation", key: "rowid = \(donations.string(0))", reason: "json is not a donation (\(decodingFault(error)))",
                    advice: "not used for ranking; retention deletes it with the oldest donations, or delete it")
            }
        }
        let visibility = try ColumnReader(db, sql: "SELECT instance, lastVisible FROM visibility")
        while try visibility.next() {
            guard let date = visibility.date(1) else {
                quarantine.row(
                    "visibility", key: "instance = \(Quarantine.sqlText(visibility.string(0)))",
                    reason: "lastVisible is not a number within years 1 to 9999",
                    advice: "the instance counts as never shown until a host shows it again, which replaces the row")
                continue
            }
            state.lastVisible[visibility.string(0)] = Date(timeIntervalSince1970: date)
        }
        state.settledRelevance = try Self.loadSettledRelevance(db, quarantine: &quarantine)
        state.freshRelevance = try Self.loadFreshRelevance(db, quarantine: &quarantine)
        state.quarantined = quarantine.rows
        state.failedInstances = quarantine.failedInPlacementOrder
        return state
    }

    /// What a decoder said, short: the field it stopped at and why.
    static func decodingFault(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "\(error)" }
        let context: DecodingError.Context
        switch error {
        case .dataCorrupted(let found), .keyNotFound(_, let found), .typeMismatch(_, let found), .valueNotFound(_, let found):
            context = found
        @unknown default:
            return "\(error)"
        }
        let path = context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
        let underlying = (context.underlyingError as? NSError)?.userInfo[NSDebugDescriptionErrorKey] as? String
        let fault = (path.isEmpty ? "" : path + ": ") + (underlying ?? context.debugDescription)
        // A decoder may quote the value it read, which a damaged row makes anything.
        return fault.count > 160 ? fault.prefix(160) + "…" : fault
    }

    public func decisions(stack: String?, since: Date?, limit: Int) async throws -> [RotationDecision] {
        try await pool.read { db in
            var conditions: [String] = []
            var arguments: StatementArguments = []
            if let stack {
                conditions.append("stack = ?")
                arguments += [stack]
            }
            if let since {
                conditions.append("date >= ?")
                arguments += [since.timeIntervalSince1970]
            }
            let filter = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
            arguments += [max(0, limit)]
            let rows = try Row.fetchAll(
                db, sql: "SELECT rowid, json FROM decision \(filter) ORDER BY date DESC, rowid DESC LIMIT ?", arguments: arguments)
            return rows.reversed().compactMap { row -> RotationDecision? in
                let rowid: Int64 = row[0]
                let text = String.fromDatabaseValue(row[1] as DatabaseValue) ?? ""
                do {
                    return try WidgetJSON.decoder.decode(RotationDecision.self, from: Data(text.utf8))
                } catch {
                    skipRow(rowid, reason: "json is not a rotation decision (\(Self.decodingFault(error)))")
                    return nil
                }
            }
        }
    }

    /// A log row that does not decode: left out of every answer, and handed to
    /// `takeSkippedRows` the first time.
    private func skipRow(_ rowid: Int64, reason: String) {
        skipped.withLock { skipped in
            guard skipped.seen.insert(rowid).inserted else { return }
            var quarantine = Quarantine(path: path)
            quarantine.row(
                "decision", key: "rowid = \(rowid)", reason: reason,
                advice: "left out of 'widgetctl log'; max-log-rows retention deletes it in time, or delete it")
            skipped.untold += quarantine.rows
        }
    }

    public func takeSkippedRows() -> [QuarantinedRow] {
        skipped.withLock { skipped in
            defer { skipped.untold = [] }
            return skipped.untold
        }
    }

    public func submit(_ changes: [StoreChange], completion: @escaping @Sendable (Result<Void, any Error>) -> Void) {
        submit(batch: [(changes, completion)])
    }

    public func submit(batch: [(changes: [StoreChange], completion: @Sendable (Result<Void, any Error>) -> Void)]) {
        // What was read at start-up is out of date once anything changes.
        preloaded.withLock { $0 = nil }
        var items: [(work: [StoreStatement], completion: GroupCommit<[StoreStatement]>.Completion)] = []
        items.reserveCapacity(batch.count)
        for (changes, completion) in batch {
            guard !changes.isEmpty else {
                completion(.success(()))
                continue
            }
            // Encode outside the transaction: a value that cannot be encoded aborts before any write.
            do {
                items.append((try changes.flatMap(Self.statements(for:)), completion))
            } catch {
                completion(.failure(error))
            }
        }
        commits.submit(items)
    }

    private static func json<T: Encodable>(_ value: T) throws -> String {
        String(decoding: try WidgetJSON.encoder.encode(value), as: UTF8.self)
    }

    /// The statements for one change, in order.
    private static func statements(for change: StoreChange) throws -> [StoreStatement] {
        switch change {
        case .putInstance(let instance):
            let configuration = String(decoding: try WidgetJSON.encoder.encode(instance.configuration), as: UTF8.self)
            return [StoreStatement(
                """
                INSERT INTO instance (id, kind, family, configuration, created) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT(id) DO UPDATE SET kind = excluded.kind, family = excluded.family,
                    configuration = excluded.configuration
                """,
                [instance.id, instance.kind, instance.family.rawValue, configuration, instance.created.timeIntervalSince1970]
            )]
        case .deleteInstance(let id):
            // Cascades to timeline, reload and request rows.
            return [StoreStatement("DELETE FROM instance WHERE id = ?", [id])]
        case .putTimeline(let id, let timeline, let receivedAt):
            // Not in `timelineStatements`: migration v5 writes timelines before this table exists.
            return timelineRows(id, timeline, receivedAt: receivedAt.timeIntervalSince1970)
                + [StoreStatement("DELETE FROM fresh_relevance WHERE instance = ?", [id])]
        case .recordReload(let id, let date, let reason, let budgeted):
            return [
                .instanceExists(id, covering: 1),
                StoreStatement(
                    "INSERT INTO reload (instance, date, reason, budgeted) VALUES (?, ?, ?, ?)",
                    [id, date.timeIntervalSince1970, reason.rawValue, budgeted]),
            ]
        case .pruneReloads(let before):
            return [StoreStatement("DELETE FROM reload WHERE date < ?", [before.timeIntervalSince1970])]
        case .putRequest(let id, let reason, let wanted, let sequence):
            return [
                .instanceExists(id, covering: 1),
                StoreStatement(
                    """
                    INSERT INTO request (instance, reason, wanted, sequence) VALUES (?, ?, ?, ?)
                    ON CONFLICT(instance) DO UPDATE SET reason = excluded.reason, wanted = excluded.wanted,
                        sequence = excluded.sequence
                    """,
                    [id, reason.rawValue, wanted.timeIntervalSince1970, sequence]),
            ]
        case .deleteRequest(let id, let sequence):
            return [StoreStatement("DELETE FROM request WHERE instance = ? AND sequence = ?", [id, sequence])]
        case .putStack(let stack):
            return [StoreStatement("INSERT OR REPLACE INTO stack (name, state) VALUES (?, ?)", [stack.name, stack.jsonText])]
        case .deleteStack(let name):
            return [StoreStatement("DELETE FROM stack WHERE name = ?", [name])]
        case .putDonation(let donation):
            return [StoreStatement(
                "INSERT INTO donation (id, groupId, json, date) VALUES (?, ?, ?, ?)",
                [donation.id, donation.group, donation.json, donation.date.timeIntervalSince1970]
            )]
        case .deleteDonations(let id, let group):
            switch (id, group) {
            case (let id?, _): return [StoreStatement("DELETE FROM donation WHERE id = ?", [id])]
            case (nil, let group?): return [StoreStatement("DELETE FROM donation WHERE groupId = ?", [group])]
            case (nil, nil): return [StoreStatement("DELETE FROM donation", [])]
            }
        case .appendDecision(let decision):
            return [StoreStatement(
                "INSERT INTO decision (stack, date, json) VALUES (?, ?, ?)",
                // Written directly, as `JSONEncoder` would; the encoder only to refuse a number
                // that is not finite with its error.
                [decision.stack, decision.date.timeIntervalSince1970, try decision.jsonText ?? json(decision)]
            )]
        case .pruneDecisions(let keep):
            // Rows are appended with AUTOINCREMENT rowids and only this removes them, oldest
            // first, so the newest `keep` are the rowids above max - keep: a lookup, not a
            // sort, cheap enough to run with every decision.
            return [StoreStatement(
                "DELETE FROM decision WHERE rowid <= (SELECT max(rowid) FROM decision) - ?",
                [max(0, keep)]
            )]
        case .pruneDonations(let keep):
            // Counted here, not by the caller: concurrent donations in one group commit each
            // see the rows the ones before them left.
            return [StoreStatement(
                """
                DELETE FROM donation WHERE rowid IN (
                    SELECT rowid FROM donation ORDER BY date, rowid
                    LIMIT max(0, (SELECT count(*) FROM donation) - ?))
                """,
                [max(0, keep)]
            )]
        case .putVisibility(let id, let lastVisible):
            return [
                .instanceExists(id, covering: 1),
                StoreStatement(
                    """
                    INSERT INTO visibility (instance, lastVisible) VALUES (?, ?)
                    ON CONFLICT(instance) DO UPDATE SET lastVisible = excluded.lastVisible
                    """,
                    [id, lastVisible.timeIntervalSince1970]),
            ]
        case .updateRelevance(let id, let change):
            return relevanceStatements(id, change).map { StoreStatement($0.0, $0.1) }
        case .putFreshRelevance(let id, let samples):
            return freshRelevanceStatements(id, samples).map { StoreStatement($0.0, $0.1) }
        }
    }
}
