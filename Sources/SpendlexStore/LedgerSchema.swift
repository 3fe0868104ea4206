import GRDB
import SpendlexEngine

/// The ledger's tables, as named, append-only migrations: a released migration is never
/// edited; a change is a new migration after the last.
enum LedgerSchema {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(sql: """
                CREATE TABLE import_runs (
                    id INTEGER PRIMARY KEY,
                    inputs TEXT NOT NULL,            -- the input paths, one per line
                    inputs_hash TEXT,                -- hash of the paths, sizes and modification times
                    started_at TEXT NOT NULL,        -- ISO 8601, UTC
                    finished_at TEXT,                -- NULL: interrupted (or still running)
                    messages INTEGER NOT NULL DEFAULT 0,
                    transactions INTEGER NOT NULL DEFAULT 0,
                    ignored INTEGER NOT NULL DEFAULT 0,
                    unmatched INTEGER NOT NULL DEFAULT 0,
                    errors INTEGER NOT NULL DEFAULT 0,
                    skipped INTEGER NOT NULL DEFAULT 0, -- already in the ledger, not read again
                    duplicates INTEGER NOT NULL DEFAULT 0
                );
                CREATE TABLE messages (
                    id TEXT PRIMARY KEY,
                    file TEXT,
                    byte_offset INTEGER,
                    channel TEXT NOT NULL,
                    sender TEXT,
                    received_at TEXT,
                    status TEXT NOT NULL CHECK (status IN ('transaction', 'ignored', 'unmatched', 'error')),
                    rule TEXT,
                    reason TEXT,
                    run_id INTEGER REFERENCES import_runs(id),
                    processed_at TEXT NOT NULL
                );
                CREATE TABLE accounts (
                    id INTEGER PRIMARY KEY,
                    bank TEXT NOT NULL,
                    type TEXT NOT NULL,
                    mask TEXT NOT NULL,
                    currency TEXT,
                    display_name TEXT,
                    UNIQUE (bank, type, mask)
                );
                CREATE TABLE transactions (
                    id INTEGER PRIMARY KEY,
                    message_id TEXT NOT NULL UNIQUE REFERENCES messages(id),
                    idempotency_key TEXT NOT NULL,   -- the engine's key: message and parse
                    content_key TEXT NOT NULL,       -- bank, account, direction, amount, currency, date, time, merchant
                    source_kind TEXT NOT NULL,
                    sender TEXT,
                    received_at TEXT,
                    file TEXT,
                    byte_offset INTEGER,
                    rule TEXT NOT NULL,
                    bank TEXT NOT NULL,
                    direction TEXT,
                    kind TEXT,
                    amount TEXT,                     -- exact decimal string as written (scale kept), never a float
                    amount_value TEXT,               -- the same number in canonical form ("1250" for "1,250.00"), for matching
                    currency TEXT,
                    date TEXT,
                    time TEXT,
                    merchant TEXT,
                    account_id INTEGER REFERENCES accounts(id),
                    account_type TEXT,
                    account_last4 TEXT,
                    balance TEXT,
                    reference TEXT,
                    channel TEXT,
                    category TEXT,
                    subcategory TEXT,
                    category_source TEXT CHECK (category_source IN ('rules', 'user')),
                    tags TEXT,
                    confidence REAL NOT NULL,
                    status TEXT NOT NULL,
                    field_count INTEGER NOT NULL,    -- fields present: the primary of duplicates has the most
                    duplicate_of INTEGER REFERENCES transactions(id),
                    duplicate_reason TEXT,
                    created_at TEXT NOT NULL,
                    updated_at TEXT NOT NULL
                );
                CREATE INDEX transactions_content ON transactions(content_key);
                CREATE INDEX transactions_reference ON transactions(bank, reference) WHERE reference IS NOT NULL;
                CREATE INDEX transactions_same_money ON transactions(amount_value, currency, direction);
                CREATE INDEX transactions_date ON transactions(date);
                CREATE INDEX transactions_duplicate_of ON transactions(duplicate_of);
                CREATE TABLE mapping_stats (
                    row_id TEXT PRIMARY KEY,         -- a categorization row's stable id
                    hits INTEGER NOT NULL DEFAULT 0,
                    last_hit_at TEXT
                );
                """)
        }
        // The HTTP service's tables: API keys (hashed), a user's merchant-to-category
        // mappings, notes on transactions, the wallet (cards, manual spending corrections)
        // and the advisor's preferences.
        migrator.registerMigration("v2-service") { db in
            try db.execute(sql: """
                CREATE TABLE api_keys (
                    id INTEGER PRIMARY KEY,
                    name TEXT NOT NULL,
                    key_hash TEXT NOT NULL UNIQUE,   -- SHA-256 of the key, hex; the key itself is never stored
                    created_at TEXT NOT NULL,        -- ISO 8601, UTC
                    revoked_at TEXT                  -- NULL: in force
                );
                ALTER TABLE transactions ADD COLUMN note TEXT;
                CREATE TABLE category_mappings (
                    id INTEGER PRIMARY KEY,
                    merchant TEXT NOT NULL,          -- as the user wrote it
                    merchant_key TEXT NOT NULL UNIQUE, -- folded: what transactions' merchants are compared with
                    category TEXT NOT NULL,
                    subcategory TEXT,
                    created_at TEXT NOT NULL
                );
                CREATE TABLE wallet_cards (
                    id INTEGER PRIMARY KEY,
                    card TEXT NOT NULL,              -- the card file's id (amex-gold)
                    last4 TEXT,                      -- as the ledger stores it, to read the spending so far
                    nickname TEXT,
                    anniversary TEXT,                -- YYYY-MM-DD
                    statement_day INTEGER,           -- 1...31
                    activated TEXT NOT NULL DEFAULT '', -- rotating quarters activated, comma-separated (2026-Q4)
                    created_at TEXT NOT NULL,
                    updated_at TEXT NOT NULL
                );
                CREATE TABLE wallet_spending (
                    card_id INTEGER NOT NULL REFERENCES wallet_cards(id) ON DELETE CASCADE,
                    reward_group TEXT NOT NULL,      -- the card file's reward group id
                    amount TEXT NOT NULL,            -- exact decimal string, the card's currency
                    as_of TEXT NOT NULL,             -- YYYY-MM-DD: the day the amount holds for
                    updated_at TEXT NOT NULL,
                    PRIMARY KEY (card_id, reward_group)
                );
                CREATE TABLE preferences (
                    name TEXT PRIMARY KEY,           -- preferred_program, alert_threshold
                    value TEXT NOT NULL
                );
                """)
        }
        // Card numbers in free text stored by earlier versions (glued to letters, which the
        // masker used to leave alone; notes, nicknames, mappings, senders): masked in place.
        // Message ids stay as they are: transactions refer to them, and a re-run finds them.
        migrator.registerMigration("v3-mask-card-numbers") { db in
            let mask = DatabaseFunction("spendlex_mask_card_numbers", argumentCount: 1, pure: true) { values in
                String.fromDatabaseValue(values[0]).map(CardNumberMasker.mask)
            }
            db.add(function: mask)
            defer { db.remove(function: mask) }
            let columns = [
                "transactions": ["sender", "merchant", "reference", "note", "file"],
                "messages": ["sender", "reason", "file"],
                "import_runs": ["inputs"],
                "category_mappings": ["merchant"],
                "wallet_cards": ["nickname"],
                "api_keys": ["name"],
            ]
            for (table, names) in columns.sorted(by: { $0.key < $1.key }) {
                let sets = names.map { "\($0) = spendlex_mask_card_numbers(\($0))" }.joined(separator: ", ")
                try db.execute(sql: "UPDATE \(table) SET \(sets)")
            }
        }
        // Runs that fail say why; a run's process is kept, so that a run whose process died
        // (kill -9, a crash) is marked interrupted by the next run rather than left open for ever.
        migrator.registerMigration("v4-run-outcomes") { db in
            try db.execute(sql: """
                ALTER TABLE import_runs ADD COLUMN pid INTEGER;      -- the process that ran it
                ALTER TABLE import_runs ADD COLUMN failure TEXT;     -- NULL: finished cleanly (or still running)
                """)
        }
        // The merchant as captured, beside the cleaned one; card numbers masked before it is written.
        // Rows stored before keep NULL until their message is parsed again.
        migrator.registerMigration("v5-merchant-raw") { db in
            try db.execute(sql: "ALTER TABLE transactions ADD COLUMN merchant_raw TEXT")
        }
        // The balances bank statements state (`spendlex import`): the exports' balance assertions.
        migrator.registerMigration("v6-statement-balances") { db in
            try db.execute(sql: """
                CREATE TABLE statement_balances (
                    id INTEGER PRIMARY KEY,
                    bank TEXT NOT NULL,
                    account_type TEXT,               -- card or account; NULL with no account
                    account_last4 TEXT,
                    currency TEXT NOT NULL,
                    date TEXT NOT NULL,              -- YYYY-MM-DD: the balance at the end of this day
                    amount TEXT NOT NULL,            -- exact signed decimal, as the statement states it
                    kind TEXT NOT NULL CHECK (kind IN ('opening', 'closing')),
                    file TEXT,
                    UNIQUE (bank, account_type, account_last4, currency, date, kind)
                );
                """)
        }
        // The ledger as a daily tool: a message's subject and text kept (card numbers masked) for
        // `spendlex show` and search; a merchant set by hand and a duplicate link a person undid,
        // both kept through reparsing; and the full-text index (`Ledger+Search`), kept in step by
        // triggers and built here for a ledger that already holds messages.
        migrator.registerMigration("v7-search") { db in
            try db.execute(sql: """
                ALTER TABLE messages ADD COLUMN subject TEXT;
                ALTER TABLE messages ADD COLUMN text TEXT;
                ALTER TABLE transactions ADD COLUMN merchant_source TEXT CHECK (merchant_source IN ('rules', 'user'));
                ALTER TABLE transactions ADD COLUMN not_duplicate INTEGER NOT NULL DEFAULT 0;
                \(SearchIndex.schema)
                """)
        }
        // Which rules each run parsed with (a hash of the rule files), so that a run over a ledger
        // stored with other rules can say so and name --reprocess.
        migrator.registerMigration("v8-rules-hash") { db in
            try db.execute(sql: "ALTER TABLE import_runs ADD COLUMN rules_hash TEXT")
        }
        // A transaction written for a message already in the search index takes the message's old
        // words out and puts them back with its own in `Ledger.write` (`SearchIndex.takeOut`, `restore`), not by
        // triggers: the two insert triggers' sub-queries ran for every transaction and made importing
        // a million statement rows 31% slower, when only a reparsed message can be indexed already.
        migrator.registerMigration("v9-search-insert-in-code") { db in
            try db.execute(sql: """
                DROP TRIGGER search_transaction_adding;
                DROP TRIGGER search_transaction_added;
                """)
        }
        // Whose money a card spends (credit, debit, prepaid), as its alerts say: a debit card's
        // spending leaves an asset, a credit card's is owed. Kept per account, so that one alert
        // naming the kind ("Debit Card XX1234") tells it for the card's every transaction.
        migrator.registerMigration("v10-card-kinds") { db in
            try db.execute(sql: "ALTER TABLE accounts ADD COLUMN card_kind TEXT CHECK (card_kind IN ('credit', 'debit', 'prepaid'))")
        }
        // The rule files each run read (absolute paths, one a line), so that any command on the
        // ledger can hash them again and say when they changed since (`messagesParsedWithChangedRules`).
        migrator.registerMigration("v11-rules-files") { db in
            try db.execute(sql: "ALTER TABLE import_runs ADD COLUMN rules_files TEXT")
        }
        // The learned category model's guess for a transaction no decision-table row categorized
        // (`Ledger.learnCategories`), with its probability; `category_probability` is set when the
        // guess became the category (at or above the threshold), and says the model decided it.
        migrator.registerMigration("v12-learned-categories") { db in
            try db.execute(sql: """
                ALTER TABLE transactions ADD COLUMN learned_category TEXT;
                ALTER TABLE transactions ADD COLUMN learned_subcategory TEXT;
                ALTER TABLE transactions ADD COLUMN learned_probability REAL;
                ALTER TABLE transactions ADD COLUMN category_probability REAL;
                """)
        }
        // How far `spendlex fetch` got in each IMAP mailbox: the mailbox's UIDVALIDITY, the highest
        // UID looked at (every message up to it was searched, and the bank mail among it stored),
        // and a hash of the search (senders, --since) that found it. A changed UIDVALIDITY or
        // search starts from the first UID again, skipping messages the ledger has by Message-ID.
        migrator.registerMigration("v13-imap-mailboxes") { db in
            try db.execute(sql: """
                CREATE TABLE imap_mailboxes (
                    mailbox TEXT PRIMARY KEY,
                    uid_validity INTEGER NOT NULL,
                    last_uid INTEGER NOT NULL,
                    search_hash TEXT NOT NULL,
                    messages INTEGER NOT NULL DEFAULT 0,
                    fetched_at TEXT NOT NULL
                )
                """)
        }
        // Search by meaning: a vector per distinct meaning document and each message's link to its
        // own, kept in step like the full-text index (`MeaningIndex`). The vectors themselves are made
        // by the next search, batch run's end or `spendlex reindex`, when the embedding model is installed.
        migrator.registerMigration("v14-meaning-vectors") { db in
            try db.execute(sql: MeaningIndex.schema)
        }
        return migrator
    }
}
