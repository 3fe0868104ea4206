/// FNV-1a, 64 bits, as 16 hex digits: a short hash that is the same on every machine
/// and run, for ids of messages that carry none and for idempotency keys. Not for security.
public enum StableHash {
    /// The hash of some bytes.
    public static func hex<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        var hasher = FNV1a()
        if bytes.withContiguousStorageIfAvailable({ hasher.combine($0) }) == nil {
            for byte in bytes { hasher.combine(byte) }
        }
        return hasher.hex
    }

    /// The hash of several strings, joined by a unit separator so that ("ab","c") ≠ ("a","bc").
    public static func hex(parts: [String]) -> String {
        var hasher = FNV1a()
        for part in parts { hasher.combine(part: part) }
        return hasher.hex
    }

    /// The running hash, fed byte by byte or part by part: lets the per-message idempotency
    /// key be hashed from the fields as they are, without an array of strings per message.
    struct FNV1a {
        private var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        private var parts = 0

        @inline(__always)
        mutating func combine(_ byte: UInt8) {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }

        mutating func combine(_ bytes: UnsafeBufferPointer<UInt8>) {
            for byte in bytes { combine(byte) }
        }

        /// Starts a new part: after the first, a unit separator goes in first.
        mutating func startPart() {
            if parts > 0 { combine(0x1f) }
            parts += 1
        }

        /// One part of `hex(parts:)`.
        mutating func combine(part: String) {
            startPart()
            part.withUTF8Bytes { combine($0) }
        }

        /// The hash as 16 lower-case hex digits.
        var hex: String {
            String(unsafeUninitializedCapacity: 16) { out in
                let digits: StaticString = "0123456789abcdef"
                for index in 0..<16 {
                    out[index] = digits.utf8Start[Int(hash >> (60 - 4 * UInt64(index)) & 0xf)]
                }
                return 16
            }
        }
    }
}
