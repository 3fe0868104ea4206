import GRDB
import GRDBSQLite

/// A statement of the ledger's hot path (a message's and a transaction's inserts), prepared on
/// GRDB's connection and run through SQLite's C API with its values bound one by one.
///
/// GRDB's `StatementArguments` box every value as an existential and copy them into an array
/// per statement: for the 35 columns of a transaction that was a fifth of storing a batch,
/// more than SQLite's own work on the row. Everything else in the ledger goes through GRDB.
/// Used inside one of GRDB's write transactions only, and finalized before it ends.
///
/// Text is not handed to SQLite as it is bound: bound as SQLITE_TRANSIENT, SQLite copied each
/// value into memory of its own, one allocation (and, with SQLite's memory statistics on, one
/// global mutex) per value, 30 per transaction. Here the values of a row are copied into one
/// buffer the statement keeps, and bound as SQLITE_STATIC when the row runs: the buffer is not
/// touched until the statement is reset.
final class BoundStatement {
    private let statement: OpaquePointer
    private let connection: OpaquePointer
    private let sql: String
    /// The text values of the row being bound, end to end, and where each goes.
    private var texts: [UInt8] = []
    private var pending: [(index: Int32, start: Int, count: Int)] = []

    /// SQLite reads bound text in place until the statement is reset.
    private static let staticText = unsafeBitCast(OpaquePointer(bitPattern: 0), to: sqlite3_destructor_type.self)
    private static let empty: StaticString = ""

    /// Prepares `sql` on `db`'s connection.
    init(_ db: Database, sql: String) throws {
        guard let connection = db.sqliteConnection else {
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "the ledger's connection is closed", sql: sql)
        }
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v3(connection, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard code == SQLITE_OK, let statement else {
            let message = String(cString: sqlite3_errmsg(connection))
            sqlite3_finalize(statement)
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: message, sql: sql)
        }
        self.statement = statement
        self.connection = connection
        self.sql = sql
    }

    deinit { sqlite3_finalize(statement) }

    /// Binds the text (NULL for nil) to the 1-based parameter `index`, for the next run.
    func bind(_ index: Int32, _ text: String?) {
        guard var text else {
            sqlite3_bind_null(statement, index)
            return
        }
        let start = texts.count
        text.withUTF8 { texts.append(contentsOf: $0) }
        pending.append((index, start, texts.count - start))
    }

    /// Binds the integer (NULL for nil) to the 1-based parameter `index`.
    func bind(_ index: Int32, _ value: Int64?) {
        if let value { sqlite3_bind_int64(statement, index, value) } else { sqlite3_bind_null(statement, index) }
    }

    /// Binds the integer (NULL for nil) to the 1-based parameter `index`.
    func bind(_ index: Int32, _ value: Int?) {
        bind(index, value.map(Int64.init))
    }

    /// Binds the number to the 1-based parameter `index`.
    func bind(_ index: Int32, _ value: Double) {
        sqlite3_bind_double(statement, index, value)
    }

    /// Runs the statement with the values bound, then clears them for the next row.
    func execute() throws {
        // The error's message is read before the statement is reset.
        let failure: DatabaseError? = step {
            let code = sqlite3_step(statement)
            return code == SQLITE_DONE || code == SQLITE_ROW ? nil : error(code)
        }
        if let failure { throw failure }
    }

    /// Binds the pending text values in place, runs `body`, then resets the statement and
    /// clears every value (the buffer is reused by the next row).
    private func step<Result>(_ body: () throws -> Result) rethrows -> Result {
        defer {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
            texts.removeAll(keepingCapacity: true)
            pending.removeAll(keepingCapacity: true)
        }
        return try texts.withUnsafeBufferPointer { buffer in
            // An empty buffer may have no address; SQLite reads a null pointer as NULL, not "".
            let base = UnsafeRawPointer(buffer.baseAddress ?? UnsafePointer(Self.empty.utf8Start))
            for value in pending {
                sqlite3_bind_text(statement, value.index, (base + value.start).assumingMemoryBound(to: CChar.self),
                                  Int32(value.count), Self.staticText)
            }
            return try body()
        }
    }

    /// Runs a statement that returns one integer (an `INSERT ... RETURNING id`); nil when it
    /// returns no row or NULL.
    func executeReturningInteger() throws -> Int64? {
        try executeReturningRow { $0.integer(0) } ?? nil
    }

    /// The columns of a returned row, read while it is current.
    struct ReturnedRow {
        fileprivate let statement: OpaquePointer

        /// Column `index` (0-based) as an integer; nil when NULL.
        func integer(_ index: Int32) -> Int64? {
            sqlite3_column_type(statement, index) == SQLITE_NULL ? nil : sqlite3_column_int64(statement, index)
        }

        /// Column `index` (0-based) as text; nil when NULL.
        func text(_ index: Int32) -> String? {
            sqlite3_column_text(statement, index).map { String(cString: $0) }
        }
    }

    /// Runs a statement that returns one row (an `INSERT ... RETURNING id, kind`), read by `read`;
    /// nil when it returns no row.
    func executeReturningRow<Value>(_ read: (ReturnedRow) -> Value) throws -> Value? {
        try step { try readRow(read) }
    }

    private func readRow<Value>(_ read: (ReturnedRow) -> Value) throws -> Value? {
        let code = sqlite3_step(statement)
        switch code {
        case SQLITE_ROW:
            let value = read(ReturnedRow(statement: statement))
            // Step to the end, so that the statement is complete before it is reset.
            let end = sqlite3_step(statement)
            guard end == SQLITE_DONE else { throw error(end) }
            return value
        case SQLITE_DONE:
            return nil
        default:
            throw error(code)
        }
    }

    /// The error of a failed step, with SQLite's message (read before the statement is reset).
    private func error(_ code: Int32) -> DatabaseError {
        DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(connection)), sql: sql)
    }
}
