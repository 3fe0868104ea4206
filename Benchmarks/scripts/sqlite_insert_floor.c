/*
 * What SQLite alone takes to store a run's rows: the messages and transactions of a ledger that
 * `spendlex parse --store` wrote, inserted again into an empty copy of its schema, row by row
 * through prepared statements with their values bound in place, in transactions of 16,384
 * messages (as the ledger's writer does), a message's transaction right after it. No parsing,
 * no Swift: the floor under `parse --store`'s writer thread.
 *
 *   cc -O2 Benchmarks/scripts/sqlite_insert_floor.c -o /tmp/sqlite-floor -lsqlite3
 *   spendlex parse --rules Benchmarks/rules /tmp/spendlex-corpus.mbox --store /tmp/ledger.db --quiet
 *   sqlite3 /tmp/ledger.db .schema > /tmp/schema.sql
 *   rm -f /tmp/floor.db*; (echo "PRAGMA page_size=16384;"; cat /tmp/schema.sql) | sqlite3 /tmp/floor.db
 *   /tmp/sqlite-floor /tmp/ledger.db /tmp/floor.db
 */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct { int columns; int *type; char **text; int *length; sqlite3_int64 *integer; double *real; } Row;

static Row *load(sqlite3 *db, const char *sql, int *count, int *columns) {
    sqlite3_stmt *statement;
    if (sqlite3_prepare_v2(db, sql, -1, &statement, 0) != SQLITE_OK) { fprintf(stderr, "%s\n", sqlite3_errmsg(db)); exit(1); }
    int capacity = 1024, n = 0;
    Row *rows = malloc(sizeof(Row) * capacity);
    *columns = sqlite3_column_count(statement);
    while (sqlite3_step(statement) == SQLITE_ROW) {
        if (n == capacity) rows = realloc(rows, sizeof(Row) * (capacity *= 2));
        Row *row = &rows[n++];
        int c = *columns;
        row->columns = c;
        row->type = calloc(c, sizeof(int)); row->text = calloc(c, sizeof(char *)); row->length = calloc(c, sizeof(int));
        row->integer = calloc(c, sizeof(sqlite3_int64)); row->real = calloc(c, sizeof(double));
        for (int i = 0; i < c; i++) {
            row->type[i] = sqlite3_column_type(statement, i);
            if (row->type[i] == SQLITE_TEXT) {
                row->length[i] = sqlite3_column_bytes(statement, i);
                row->text[i] = malloc(row->length[i] + 1);
                memcpy(row->text[i], sqlite3_column_text(statement, i), row->length[i]);
                row->text[i][row->length[i]] = 0;
            } else if (row->type[i] == SQLITE_INTEGER) {
                row->integer[i] = sqlite3_column_int64(statement, i);
            } else if (row->type[i] == SQLITE_FLOAT) {
                row->real[i] = sqlite3_column_double(statement, i);
            }
        }
    }
    sqlite3_finalize(statement);
    *count = n;
    return rows;
}

static void bind(sqlite3_stmt *statement, const Row *row) {
    for (int i = 0; i < row->columns; i++) {
        switch (row->type[i]) {
        case SQLITE_TEXT: sqlite3_bind_text(statement, i + 1, row->text[i], row->length[i], SQLITE_STATIC); break;
        case SQLITE_INTEGER: sqlite3_bind_int64(statement, i + 1, row->integer[i]); break;
        case SQLITE_FLOAT: sqlite3_bind_double(statement, i + 1, row->real[i]); break;
        default: sqlite3_bind_null(statement, i + 1);
        }
    }
}

static sqlite3_stmt *insert(sqlite3 *db, const char *table, int columns, const char *tail) {
    char sql[4096];
    int at = snprintf(sql, sizeof sql, "INSERT INTO %s VALUES (", table);
    for (int i = 0; i < columns; i++) at += snprintf(sql + at, sizeof sql - at, i ? ",?" : "?");
    snprintf(sql + at, sizeof sql - at, ")%s", tail);
    sqlite3_stmt *statement;
    if (sqlite3_prepare_v3(db, sql, -1, SQLITE_PREPARE_PERSISTENT, &statement, 0) != SQLITE_OK) {
        fprintf(stderr, "%s\n", sqlite3_errmsg(db));
        exit(1);
    }
    return statement;
}

static void step(sqlite3 *db, sqlite3_stmt *statement) {
    if (sqlite3_step(statement) != SQLITE_DONE) { fprintf(stderr, "%s\n", sqlite3_errmsg(db)); exit(1); }
    sqlite3_reset(statement);
}

int main(int argc, char **argv) {
    if (argc != 3) { fprintf(stderr, "usage: %s LEDGER EMPTY_COPY\n", argv[0]); return 64; }
    sqlite3 *source, *db;
    sqlite3_open_v2(argv[1], &source, SQLITE_OPEN_READONLY, 0);
    int messageCount, messageColumns, transactionCount, transactionColumns;
    Row *messages = load(source, "SELECT * FROM messages ORDER BY rowid", &messageCount, &messageColumns);
    Row *transactions = load(source, "SELECT t.* FROM messages m JOIN transactions t ON t.message_id = m.id ORDER BY m.rowid",
                             &transactionCount, &transactionColumns);
    sqlite3_open_v2(argv[2], &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, 0);
    sqlite3_exec(db, "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA cache_size = -32768; "
                     "PRAGMA wal_autocheckpoint = 16384; PRAGMA foreign_keys = OFF", 0, 0, 0);
    struct timespec start, end;
    clock_gettime(CLOCK_MONOTONIC, &start);
    sqlite3_stmt *message = insert(db, "messages", messageColumns, " ON CONFLICT (id) DO NOTHING");
    sqlite3_stmt *transaction = insert(db, "transactions", transactionColumns, "");
    int next = 0;
    for (int first = 0; first < messageCount; first += 16384) {
        int last = first + 16384 < messageCount ? first + 16384 : messageCount;
        sqlite3_exec(db, "BEGIN IMMEDIATE", 0, 0, 0);
        for (int i = first; i < last; i++) {
            bind(message, &messages[i]);
            step(db, message);
            while (next < transactionCount && strcmp(transactions[next].text[1], messages[i].text[0]) == 0) {
                bind(transaction, &transactions[next++]);
                step(db, transaction);
            }
        }
        sqlite3_exec(db, "COMMIT", 0, 0, 0);
    }
    sqlite3_finalize(message);
    sqlite3_finalize(transaction);
    sqlite3_close(db);
    clock_gettime(CLOCK_MONOTONIC, &end);
    printf("%d messages, %d transactions stored in %.3f s\n", messageCount, next,
           (double)(end.tv_sec - start.tv_sec) + (double)(end.tv_nsec - start.tv_nsec) / 1e9);
    return 0;
}
