import Foundation
import Hummingbird
import SpendlexSync

/// One mailbox's sync, as `POST /sync` answers it.
struct MailboxSyncBody: Encodable, Sendable {
    let result: MailboxSyncResult

    enum CodingKeys: String, CodingKey {
        case mailbox, found, downloaded, transactions, stored, duplicates, reconnections, error
        case lastUID = "last_uid"
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(result.mailbox, forKey: .mailbox)
        try c.encode(result.found, forKey: .found)
        try c.encode(result.downloaded, forKey: .downloaded)
        try c.encode(result.transactions, forKey: .transactions)
        try c.encode(result.stored, forKey: .stored)
        try c.encode(result.duplicates, forKey: .duplicates)
        try c.encode(result.reconnections, forKey: .reconnections)
        try c.encode(result.lastUID, forKey: .lastUID)
        try c.encode(result.error, forKey: .error)
    }
}

extension SpendlexService {
    /// `POST /sync`: fetches every mailbox of the person's settings (`mailboxes:` in spendlex.yaml
    /// beside the ledger) into the ledger now, as `spendlex fetch` does, and says how each went.
    /// No mailbox configured: 404 `no_mailboxes`; a sync already running (another request, or
    /// `serve --sync-every`): 409 `sync_running`.
    func addSyncRoutes(to table: RouteTable) {
        let syncer = syncer
        let rules = rules
        table.post("/sync") { _, context in
            let ledger = try context.ledger()
            // Mailboxes are the one ledger's settings: a household's people have none (yet).
            guard context.caller?.personID == nil, !syncer.mailboxes.isEmpty else {
                throw APIError(.notFound, "no_mailboxes", "no mailboxes to sync: list them under mailboxes: in spendlex.yaml beside the ledger")
            }
            guard let results = await syncer.sync(engine: rules.current.engine, ledger: ledger) else {
                throw APIError(.conflict, "sync_running", "a sync is already running; try again when it ends")
            }
            struct Body: Encodable { let mailboxes: [MailboxSyncBody] }
            return try JSONResponse.make(Body(mailboxes: results.map(MailboxSyncBody.init)))
        }
    }
}
