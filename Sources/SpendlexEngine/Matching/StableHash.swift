/// FNV-1a, 64 bits, as 16 hex digits: a short hash that is the same on every machine
/// and run, for ids of messages that carry none and for idempotency keys. Not for security.
public enum StableHash {
    /// The hash of some bytes.
    public static func hex<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        return hexString(hash)
    }

    /// The hash of several strings, joined by a unit separator so that ("ab","c") ≠ ("a","bc").
    public static func hex(parts: [String]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for (index, part) in parts.enumerated() {
            if index > 0 { hash = (hash ^ 0x1f) &* 0x0000_0100_0000_01b3 }
            for byte in part.utf8 {
                hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
            }
        }
        return hexString(hash)
    }

    private static func hexString(_ hash: UInt64) -> String {
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
