import Foundation
import GRDB
import SpendlexEngine

/// Where a fetch from an IMAP mailbox stands: what the ledger keeps between runs.
public struct MailboxCheckpoint: Sendable, Equatable {
    /// The mailbox's URL (`imaps://user@host:993/INBOX`), without a password.
    public var mailbox: String
    /// The mailbox's UIDVALIDITY when its UIDs were read: if the server's differs, they mean nothing now.
    public var uidValidity: UInt32
    /// Every message with a UID up to this one was searched, and the bank mail among it stored.
    public var lastUID: UInt32
    /// The search that found them (senders, `--since`): another search starts again from the first UID.
    public var searchHash: String
    /// Messages fetched from the mailbox into the ledger, over every run.
    public var messages: Int

    /// A checkpoint.
    public init(mailbox: String, uidValidity: UInt32, lastUID: UInt32, searchHash: String, messages: Int = 0) {
        self.mailbox = mailbox
        self.uidValidity = uidValidity
        self.lastUID = lastUID
        self.searchHash = searchHash
        self.messages = messages
    }
}

extension Ledger {
    /// The checkpoint of a mailbox, nil before its first fetch.
    public func checkpoint(mailbox: String) throws -> MailboxCheckpoint? {
        try pool.read { db in
            try Row.fetchOne(db, sql: """
                SELECT uid_validity, last_uid, search_hash, messages FROM imap_mailboxes WHERE mailbox = ?
                """, arguments: [mailbox]).map { row in
                MailboxCheckpoint(mailbox: mailbox, uidValidity: UInt32(truncatingIfNeeded: row[0] as Int64),
                                  lastUID: UInt32(truncatingIfNeeded: row[1] as Int64), searchHash: row[2],
                                  messages: row[3])
            }
        }
    }

    /// Writes a batch of fetched messages and the mailbox's new checkpoint in one SQLite
    /// transaction: after a crash or a cut connection the ledger never holds messages beyond its
    /// checkpoint's UID that a resumed fetch would not know about, nor a checkpoint past
    /// messages it lost.
    @discardableResult
    public func write(_ records: [MessageRecord], run: Int64?, checkpoint: MailboxCheckpoint) throws -> RunCounts {
        try write(records, run: run, reprocess: false, indexing: false) { db in
            try db.execute(sql: """
                INSERT INTO imap_mailboxes (mailbox, uid_validity, last_uid, search_hash, messages, fetched_at)
                VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT (mailbox) DO UPDATE SET uid_validity = excluded.uid_validity, last_uid = excluded.last_uid,
                    search_hash = excluded.search_hash, messages = excluded.messages, fetched_at = excluded.fetched_at
                """, arguments: [checkpoint.mailbox, Int64(checkpoint.uidValidity), Int64(checkpoint.lastUID),
                                 checkpoint.searchHash, checkpoint.messages, Self.now()])
        }
    }
}
