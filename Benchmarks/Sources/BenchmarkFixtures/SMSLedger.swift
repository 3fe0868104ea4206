import CorpusKit
import Foundation
import SpendlexEngine
import SpendlexMail
import SpendlexStore

/// A phone's SMS history in a new ledger, as `spendlex parse --store` stores it: CorpusKit's
/// TextMessageStream (bank alerts of every bundled Indian parser, OTPs, offers, personal texts)
/// parsed with the bundled rules and written 10,000 at a time, the search indexes left to catch up.
public enum SMSLedger {
    /// Makes the ledger at `path` (removed first) with `messages` SMS.
    public static func make(at path: String, messages: Int) throws -> Ledger {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        let ledger = try Ledger(path: path)
        let worker = RuleFixtures.bundled().makeWorker()
        var stream = TextMessageStream(seed: 42, includeSent: false)
        var batch: [MessageRecord] = []
        for index in 0..<messages {
            let sms = stream.next()
            let message = Message(id: "sms-\(index)", text: sms.text, sender: sms.address,
                                  receivedAt: Date(timeIntervalSince1970: Double(sms.epochMilliseconds) / 1000),
                                  channel: .sms, file: "sms-backup.xml", offset: index + 1)
            batch.append(MessageRecord(message, outcome: worker.parse(message)))
            if batch.count == 10_000 {
                try ledger.write(batch, run: nil, indexing: false)
                batch.removeAll(keepingCapacity: true)
            }
        }
        try ledger.write(batch, run: nil, indexing: false)
        return ledger
    }
}
