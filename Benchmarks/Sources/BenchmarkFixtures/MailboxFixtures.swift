import CorpusKit
import Foundation

/// Generated mailboxes for the MIME and end-to-end benchmarks.
public enum MailboxFixtures {
    /// The messages of a generated alerts mailbox, as an mbox reader hands them over: without
    /// the From_ line and the blank line before the next, `>From ` unescaped.
    public static func alertMessages(count: Int, seed: UInt64 = 42) -> [[UInt8]] {
        var mailbox = AlertMailbox(seed: seed)
        return (0..<count).map { _ in
            let sink = ByteSink()
            _ = mailbox.writeNext(to: sink)
            return storedMessage(sink.bytes)
        }
    }

    /// The messages of a generated realistic mailbox of about `megabytes` MB.
    public static func realisticMessages(megabytes: Int, seed: UInt64 = 42) -> [[UInt8]] {
        var mailbox = RealisticMailbox(seed: seed)
        var messages: [[UInt8]] = []
        var total = 0
        while total < megabytes * 1_000_000 {
            let sink = ByteSink()
            _ = mailbox.writeNext(to: sink)
            total += sink.count
            messages.append(storedMessage(sink.bytes))
        }
        return messages
    }

    /// Writes a generated alerts mbox to a temporary file; returns its path and its number of
    /// transactions.
    public static func writeAlertsMbox(messages: Int, seed: UInt64 = 42) throws -> (path: String, transactions: Int) {
        let path = NSTemporaryDirectory() + "spendlex-bench-\(getpid())-\(messages).mbox"
        let sink = try ByteSink(path: path)
        var mailbox = AlertMailbox(seed: seed)
        var transactions = 0
        for _ in 0..<messages where mailbox.writeNext(to: sink) != nil { transactions += 1 }
        try sink.flush()
        return (path, transactions)
    }

    /// Writes a generated SMS Backup & Restore file (`xml: true`) or JSON Lines file of `messages`
    /// messages to a temporary file; returns its path and its number of transactions.
    public static func writeTextMessages(messages: Int, xml: Bool, seed: UInt64 = 42) throws
        -> (path: String, transactions: Int)
    {
        let path = NSTemporaryDirectory() + "spendlex-bench-\(getpid())-\(messages).\(xml ? "xml" : "jsonl")"
        let sink = try ByteSink(path: path)
        let labels = LabelWriter()
        if xml {
            SMSBackupWriter.write(count: messages, seed: seed, to: sink, labels: labels)
        } else {
            JSONLinesWriter.write(count: messages, seed: seed, to: sink, labels: labels)
        }
        try sink.flush()
        return (path, labels.count)
    }

    /// One mbox record → the stored message bytes.
    static func storedMessage(_ record: [UInt8]) -> [UInt8] {
        guard let firstNewline = record.firstIndex(of: UInt8(ascii: "\n")) else { return record }
        var body = Array(record[(firstNewline + 1)...])
        if body.last == UInt8(ascii: "\n") { body.removeLast() }  // the blank line before the next record
        // Undo mboxo escaping: ">From " at a line start.
        var result: [UInt8] = []
        result.reserveCapacity(body.count)
        var atLineStart = true
        var index = 0
        while index < body.count {
            if atLineStart, body[index] == UInt8(ascii: ">"), body[(index + 1)...].starts(with: "From ".utf8) {
                index += 1
            }
            let byte = body[index]
            result.append(byte)
            atLineStart = byte == UInt8(ascii: "\n")
            index += 1
        }
        return result
    }
}
