import GRDB

/// The schema a new, empty database gets in one transaction: what the migrations, run one by
/// one from the first, leave, down to the text of each `CREATE` (`StoreSchemaTests` holds the
/// two to the same `sqlite_master`). Why not the migrations: on a first start, parsing twelve
/// migrations' statements and GRDB's bookkeeping around each was most of the work before
/// `READY=1`. A database that has tables is migrated as before.
enum StoreSchema {
    /// The migrations this text stands for, recorded as applied with it.
    static let migrations = [
        "v1", "v2-smart-stacks", "v3-request-sequence", "v4-visibility", "v5-entry-rows",
        "v6-relevance-rows", "v7-reload-date-index", "v8-donation-date-index", "v9-donation-lookups",
        "v10-fresh-relevance", "v11-entry-actions", "v12-relevance-clues",
    ]

    /// Each statement as the migrations leave it in `sqlite_master` (`ALTER TABLE … ADD
    /// COLUMN` edits a table's text in place), in the order they made it.
    static let text = """
        CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
        CREATE TABLE "instance" ("id" TEXT PRIMARY KEY NOT NULL, "kind" TEXT NOT NULL, "family" TEXT NOT NULL, "configuration" TEXT NOT NULL, "created" DOUBLE NOT NULL);
        CREATE TABLE "reload" ("rowid" INTEGER PRIMARY KEY AUTOINCREMENT, "instance" TEXT NOT NULL REFERENCES "instance"("id") ON DELETE CASCADE, "date" DOUBLE NOT NULL, "reason" TEXT NOT NULL, "budgeted" BOOLEAN NOT NULL);
        CREATE INDEX "reload_on_instance" ON "reload"("instance");
        CREATE TABLE "request" ("instance" TEXT PRIMARY KEY NOT NULL REFERENCES "instance"("id") ON DELETE CASCADE, "reason" TEXT NOT NULL, "wanted" DOUBLE NOT NULL, "sequence" INTEGER NOT NULL DEFAULT 0);
        CREATE TABLE "stack" ("name" TEXT PRIMARY KEY NOT NULL, "state" TEXT NOT NULL);
        CREATE TABLE "donation" ("rowid" INTEGER PRIMARY KEY AUTOINCREMENT, "id" TEXT, "groupId" TEXT, "json" TEXT NOT NULL, "date" DOUBLE NOT NULL);
        CREATE TABLE "decision" ("rowid" INTEGER PRIMARY KEY AUTOINCREMENT, "stack" TEXT NOT NULL, "date" DOUBLE NOT NULL, "json" TEXT NOT NULL);
        CREATE INDEX "decision_on_stack" ON "decision"("stack");
        CREATE TABLE "visibility" ("instance" TEXT PRIMARY KEY NOT NULL REFERENCES "instance"("id") ON DELETE CASCADE, "lastVisible" DOUBLE NOT NULL);
        CREATE TABLE "timeline" ("instance" TEXT PRIMARY KEY NOT NULL REFERENCES "instance"("id") ON DELETE CASCADE, "policy" TEXT NOT NULL, "policyDate" DOUBLE, "receivedAt" DOUBLE NOT NULL);
        CREATE TABLE entry (
            instance TEXT NOT NULL REFERENCES instance(id) ON DELETE CASCADE,
            position INTEGER NOT NULL,
            date DOUBLE NOT NULL,
            content TEXT NOT NULL,
            score DOUBLE,
            duration DOUBLE, "actions" TEXT, "clues" TEXT,
            PRIMARY KEY (instance, position)
        ) WITHOUT ROWID;
        CREATE TABLE relevance_sample (
            instance TEXT NOT NULL REFERENCES instance(id) ON DELETE CASCADE,
            date DOUBLE NOT NULL,
            score DOUBLE NOT NULL,
            duration DOUBLE NOT NULL, "clues" TEXT,
            PRIMARY KEY (instance, date)
        ) WITHOUT ROWID;
        CREATE INDEX "reload_date" ON "reload"("date");
        CREATE INDEX "donation_date" ON "donation"("date");
        CREATE TABLE fresh_relevance (
            instance TEXT NOT NULL REFERENCES instance(id) ON DELETE CASCADE,
            date DOUBLE NOT NULL,
            score DOUBLE NOT NULL,
            duration DOUBLE NOT NULL, "clues" TEXT,
            PRIMARY KEY (instance, date)
        ) WITHOUT ROWID;
        """

    /// Makes the schema in a database without tables, in one transaction, and records its
    /// migrations as applied; returns false, changing nothing, when the database has any table
    /// (then it is the migrator's).
    static func createIfEmpty(_ db: Database) throws -> Bool {
        var made = false
        try db.inTransaction(.immediate) {
            // In the transaction: no other writer can make a table between the look and the text.
            guard try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") == 0 else { return .rollback }
            try db.execute(sql: text)
            for identifier in migrations {
                try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES (?)", arguments: [identifier])
            }
            made = true
            return .commit
        }
        return made
    }
}
