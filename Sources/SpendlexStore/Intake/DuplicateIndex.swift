import GRDB
import SpendlexEngine

/// Which duplicate keys the ledger may hold, so that a transaction with none of them skips the
/// SQL look-ups of `DuplicatePolicy`'s layers: most transactions duplicate nothing, and three
/// queries each were a third of storing a batch.
///
/// A Bloom filter over the keys the layers search by (the bank and reference, the content key,
/// and the amount, currency, direction and channel), filled once from the ledger's rows and
/// then kept up to date: before each write, with the rows other connections added since (ids
/// above the last one seen; SQLite serializes writers, so none is added during a write), and
/// with each row this one inserts or updates. "No" is certain; "maybe" is checked in SQL, so a
/// false positive costs a query and never a wrong link. Its size follows the ledger's: a bit
/// array of 16 to 32 bits per key when built, rebuilt from the rows when more keys leave fewer
/// than 8 (8 to 16 MiB for a million transactions).
///
/// What it does not see: a row another connection updated in place (a `--reprocess` run beside
/// this one) keeps its old keys here until the filter is rebuilt, so a duplicate of its new
/// content can go unlinked meanwhile; nothing is lost or merged wrongly.
struct DuplicateIndex {
    private var bits: [UInt64] = []
    private var keys = 0
    private var lastSeenID: Int64 = 0

    /// Hashes per key: with 16 bits per key, about 0.3% false positives; at 8 (when the filter
    /// is rebuilt), about 3%.
    private static let hashes = 3
    /// Bits per key at least when the filter is (re)built.
    private static let bitsPerKey = 16
    /// Bits per key below which it is rebuilt.
    private static let crowdedBitsPerKey = 8
    private static let smallest = 1 << 16

    /// Brings the filter up to date with the ledger: the rows added since the last call (every
    /// row the first time, or after the filter filled up).
    mutating func catchUp(_ db: Database) throws {
        if bits.isEmpty || keys * Self.crowdedBitsPerKey > bits.count * 64 {
            // The largest id: about the row count, without counting.
            let rows = try Int.fetchOne(db, sql: "SELECT MAX(id) FROM transactions") ?? 0
            var size = Self.smallest
            while size < (rows + 1) * 3 * Self.bitsPerKey { size <<= 1 }
            bits = [UInt64](repeating: 0, count: size / 64)
            keys = 0
            lastSeenID = 0
        }
        let rows = try Row.fetchCursor(db, sql: """
            SELECT id, bank, reference, content_key, amount_value, currency, direction, source_kind
            FROM transactions WHERE id > ? ORDER BY id
            """, arguments: [lastSeenID])
        while let row = try rows.next() {
            insert(Self.referenceKey(bank: row[1], reference: row[2]))
            insert(Self.contentKey(row[3]))
            insert(Self.moneyKey(amount: row[4], currency: row[5], direction: row[6], channel: row[7]))
            lastSeenID = row[0]
        }
    }

    /// Notes a row this connection wrote: its keys, and its id as seen.
    mutating func add(id: Int64, bank: String, reference: String?, contentKey: String, amount: String?,
                      currency: String?, direction: String?, channel: String) {
        insert(Self.referenceKey(bank: bank, reference: reference))
        insert(Self.contentKey(contentKey))
        insert(Self.moneyKey(amount: amount, currency: currency, direction: direction, channel: channel))
        lastSeenID = max(lastSeenID, id)
    }

    /// Whether a row may have this bank and reference.
    func mayHave(bank: String, reference: String) -> Bool {
        mayContain(Self.referenceKey(bank: bank, reference: reference))
    }

    /// Whether a row may have this content key.
    func mayHave(contentKey: String) -> Bool {
        mayContain(Self.contentKey(contentKey))
    }

    /// Whether a row may have this amount, currency and direction over a channel other than `channel`.
    func mayHaveMoney(amount: String, currency: String, direction: String, otherThan channel: String) -> Bool {
        MessageChannel.allCases.contains { other in
            other.rawValue != channel
                && mayContain(Self.moneyKey(amount: amount, currency: currency, direction: direction, channel: other.rawValue))
        }
    }

    // MARK: - Keys

    /// A key's hash: FNV-1a over a kind byte and the parts, each followed by a unit separator,
    /// then mixed (SplitMix64's finalizer) so that its bits can be split into the probes.
    private static func hash(_ kind: UInt8, _ parts: String?...) -> UInt64? {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func combine(_ byte: UInt8) { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        combine(kind)
        for part in parts {
            guard var part else { return nil }
            part.withUTF8 { for byte in $0 { combine(byte) } }
            combine(0x1f)
        }
        hash ^= hash >> 30
        hash &*= 0xbf58_476d_1ce4_e5b9
        hash ^= hash >> 27
        hash &*= 0x94d0_49bb_1331_11eb
        return hash ^ (hash >> 31)
    }

    private static func referenceKey(bank: String?, reference: String?) -> UInt64? {
        guard let reference, !reference.isEmpty else { return nil }
        return hash(UInt8(ascii: "r"), bank, reference)
    }

    private static func contentKey(_ key: String?) -> UInt64? { hash(UInt8(ascii: "c"), key) }

    private static func moneyKey(amount: String?, currency: String?, direction: String?, channel: String?) -> UInt64? {
        hash(UInt8(ascii: "m"), amount, currency, direction, channel)
    }

    // MARK: - Bits

    private mutating func insert(_ key: UInt64?) {
        guard let key, !bits.isEmpty else { return }
        keys += 1
        let mask = UInt64(bits.count * 64 - 1)
        var probe = key, step = (key >> 32) | 1
        for _ in 0..<Self.hashes {
            let bit = Int(probe & mask)
            bits[bit >> 6] |= 1 << UInt64(bit & 63)
            probe &+= step
            step &+= 1
        }
    }

    private func mayContain(_ key: UInt64?) -> Bool {
        guard let key else { return false }
        guard !bits.isEmpty else { return true }
        let mask = UInt64(bits.count * 64 - 1)
        var probe = key, step = (key >> 32) | 1
        for _ in 0..<Self.hashes {
            let bit = Int(probe & mask)
            if bits[bit >> 6] & (1 << UInt64(bit & 63)) == 0 { return false }
            probe &+= step
            step &+= 1
        }
        return true
    }
}
