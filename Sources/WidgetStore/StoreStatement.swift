import GRDB

/// One statement of a change as the commit thread runs it, or a check that decides whether
/// the statements after it run.
///
/// Why a check of its own rather than `INSERT … SELECT … WHERE EXISTS`: SQLite gives a
/// statement that may write more than one row its own journal inside a transaction, and a
/// launch writes tens of thousands of rows. A lookup followed by single-row inserts and
/// upserts writes each row once.
struct StoreStatement: Sendable {
    let sql: String
    let arguments: StatementArguments
    /// For a check: how many of the statements after it run only when its query finds a row;
    /// 0 for a statement that is run.
    let covering: Int

    init(_ sql: String, _ arguments: StatementArguments = []) {
        self.sql = sql
        self.arguments = arguments
        covering = 0
    }

    private init(check sql: String, _ arguments: StatementArguments, covering: Int) {
        self.sql = sql
        self.arguments = arguments
        self.covering = covering
    }

    /// A check that the instance `id` exists: the `covering` statements after it are skipped
    /// when it does not (its rows go with it, so rows written for it meanwhile are dropped,
    /// not an error: the removal won).
    static func instanceExists(_ id: String, covering: Int) -> StoreStatement {
        StoreStatement(check: "SELECT 1 FROM instance WHERE id = ?", [id], covering: covering)
    }

    /// Runs `statements` in order on `db`, skipping what a failed check covers.
    static func run(_ statements: [StoreStatement], in db: Database) throws {
        var index = statements.startIndex
        while index < statements.endIndex {
            let statement = statements[index]
            let prepared = try db.cachedStatement(sql: statement.sql)
            index += 1
            if statement.covering > 0 {
                if try Int.fetchOne(prepared, arguments: statement.arguments) == nil { index += statement.covering }
            } else {
                try prepared.execute(arguments: statement.arguments)
            }
        }
    }
}
