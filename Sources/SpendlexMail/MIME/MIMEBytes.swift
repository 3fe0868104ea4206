#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Byte-level primitives shared by the MIME decoder: searching with the C library's
/// `memchr`/`memmem` (vectorised in glibc), ASCII case folding and UTF-8 checks.
/// Everything works on raw buffers so that no `String` is built in the hot path.
enum MIMEBytes {
    static let lf = UInt8(ascii: "\n")
    static let cr = UInt8(ascii: "\r")
    static let space = UInt8(ascii: " ")
    static let tab = UInt8(ascii: "\t")

    /// Index of the first `byte` in `buffer[from..<to]`, or nil.
    @inline(__always)
    static func find(_ byte: UInt8, in buffer: UnsafeRawBufferPointer, from: Int, to: Int) -> Int? {
        guard from < to, let base = buffer.baseAddress else { return nil }
        guard let hit = memchr(base + from, Int32(byte), to - from) else { return nil }
        return base.distance(to: UnsafeRawPointer(hit))
    }

    /// Index of the first occurrence of `needle` in `buffer[from..<to]`, or nil.
    @inline(__always)
    static func find(
        _ needle: UnsafeRawBufferPointer, in buffer: UnsafeRawBufferPointer, from: Int, to: Int
    ) -> Int? {
        guard from < to, needle.count > 0, let base = buffer.baseAddress,
              let needleBase = needle.baseAddress else { return nil }
        if let memmem = libcMemmem {
            guard let hit = memmem(base + from, to - from, needleBase, needle.count) else { return nil }
            return base.distance(to: UnsafeRawPointer(hit))
        }
        // Without the C library's memmem: memchr for the first byte, memcmp for the rest.
        let first = needle[0]
        var i = from
        while to - i >= needle.count, let hit = find(first, in: buffer, from: i, to: to - needle.count + 1) {
            if memcmp(base + hit, needleBase, needle.count) == 0 { return hit }
            i = hit + 1
        }
        return nil
    }

    private typealias Memmem = @convention(c) @Sendable (
        UnsafeRawPointer?, Int, UnsafeRawPointer?, Int
    ) -> UnsafeMutableRawPointer?

    /// glibc's `memmem` (a GNU extension the Glibc module does not import), found with
    /// `dlsym`: it is vectorised and much faster than a Swift loop for boundary searches.
    private static let libcMemmem: Memmem? = {
        #if canImport(Glibc)
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "memmem") else { return nil }
        return unsafeBitCast(symbol, to: Memmem.self)
        #else
        return nil
        #endif
    }()

    @inline(__always)
    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == space || byte == tab || byte == lf || byte == cr || byte == 0x0C || byte == 0x0B
    }

    @inline(__always)
    static func lower(_ byte: UInt8) -> UInt8 {
        (byte &- 0x41) < 26 ? byte | 0x20 : byte
    }

    /// `lower` for the eight bytes of a word at once: 0x20 is added to each byte in `A`...`Z`.
    @inline(__always)
    static func lower8(_ x: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let low7 = x & (ones &* 0x7F)
        // The high bit of each byte: set when its low 7 bits are >= "A", and when >= "Z" + 1;
        // no carry crosses bytes (at most 0x7F + 0x3F).
        let atLeastA = low7 &+ ones &* (0x80 - 0x41)
        let pastZ = low7 &+ ones &* (0x80 - 0x5B)
        let upper = atLeastA & ~pastZ & ~x & (ones &* 0x80)
        return x | (upper >> 2)
    }

    /// Whether `buffer[at..<at+word.count]` equals `word` ignoring ASCII case; `word` must be lower case.
    @inline(__always)
    static func matchesLowercased(
        _ buffer: UnsafeRawBufferPointer, at: Int, end: Int, _ word: StaticString
    ) -> Bool {
        let count = word.utf8CodeUnitCount
        guard end - at >= count else { return false }
        let w = word.utf8Start
        for i in 0..<count where lower(buffer[at + i]) != w[i] {
            return false
        }
        return true
    }

    /// Whether every byte is below 0x80, eight bytes at a time.
    static func isASCII(_ buffer: UnsafeRawBufferPointer) -> Bool {
        var i = 0
        let n = buffer.count
        var acc: UInt64 = 0
        while i + 8 <= n {
            acc |= buffer.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            i += 8
        }
        while i < n {
            acc |= UInt64(buffer[i])
            i += 1
        }
        return acc & 0x8080_8080_8080_8080 == 0
    }

    /// Whether `buffer` is well-formed UTF-8 (no overlongs, no surrogates, nothing above U+10FFFF).
    static func isValidUTF8(_ buffer: UnsafeRawBufferPointer) -> Bool {
        utf8Validity(buffer) != .invalid
    }

    /// What `utf8Validity` found.
    enum UTF8Validity {
        /// Not UTF-8.
        case invalid
        /// UTF-8 whose scalars are all below U+0300 (ASCII, accented Latin): no combining mark, no
        /// jamo, nothing normalization form C could change.
        case belowCombiningMarks
        /// UTF-8 with a scalar from U+0300 on.
        case fromCombiningMarks
    }

    /// Whether `buffer` is well-formed UTF-8 and, in the same pass, whether a scalar from U+0300
    /// on is there (its lead byte is 0xCC or more): only such text can need composing (NFC).
    static func utf8Validity(_ buffer: UnsafeRawBufferPointer) -> UTF8Validity {
        var high = false
        var i = 0
        let n = buffer.count
        while i < n {
            // Skip ASCII runs quickly.
            while i + 8 <= n, buffer.loadUnaligned(fromByteOffset: i, as: UInt64.self) & 0x8080_8080_8080_8080 == 0 {
                i += 8
            }
            guard i < n else { break }
            let b0 = buffer[i]
            if b0 < 0x80 {
                i += 1
                continue
            }
            let length = utf8SequenceLength(buffer, at: i, end: n)
            if length == 0 { return .invalid }
            if b0 >= 0xCC { high = true }
            i += length
        }
        return high ? .fromCombiningMarks : .belowCombiningMarks
    }

    /// Length of the well-formed UTF-8 sequence at `i` whose first byte is >= 0x80, or 0.
    @inline(__always)
    static func utf8SequenceLength(_ buffer: UnsafeRawBufferPointer, at i: Int, end n: Int) -> Int {
        let b0 = buffer[i]
        @inline(__always) func cont(_ k: Int) -> Bool { i + k < n && buffer[i + k] & 0xC0 == 0x80 }
        switch b0 {
        case 0xC2...0xDF:
            return cont(1) ? 2 : 0
        case 0xE0...0xEF:
            guard i + 2 < n, cont(2) else { return 0 }
            let b1 = buffer[i + 1]
            let ok: Bool
            switch b0 {
            case 0xE0: ok = (0xA0...0xBF).contains(b1)
            case 0xED: ok = (0x80...0x9F).contains(b1)
            default: ok = b1 & 0xC0 == 0x80
            }
            return ok ? 3 : 0
        case 0xF0...0xF4:
            guard i + 3 < n, cont(2), cont(3) else { return 0 }
            let b1 = buffer[i + 1]
            let ok: Bool
            switch b0 {
            case 0xF0: ok = (0x90...0xBF).contains(b1)
            case 0xF4: ok = (0x80...0x8F).contains(b1)
            default: ok = b1 & 0xC0 == 0x80
            }
            return ok ? 4 : 0
        default:
            return 0
        }
    }

    /// Appends `scalar` to `out` as UTF-8.
    @inline(__always)
    static func appendUTF8(_ scalar: UInt32, to out: inout [UInt8]) {
        switch scalar {
        case 0..<0x80:
            out.append(UInt8(scalar))
        case 0x80..<0x800:
            out.append(UInt8(0xC0 | (scalar >> 6)))
            out.append(UInt8(0x80 | (scalar & 0x3F)))
        case 0x800..<0x10000:
            out.append(UInt8(0xE0 | (scalar >> 12)))
            out.append(UInt8(0x80 | ((scalar >> 6) & 0x3F)))
            out.append(UInt8(0x80 | (scalar & 0x3F)))
        default:
            out.append(UInt8(0xF0 | (scalar >> 18)))
            out.append(UInt8(0x80 | ((scalar >> 12) & 0x3F)))
            out.append(UInt8(0x80 | ((scalar >> 6) & 0x3F)))
            out.append(UInt8(0x80 | (scalar & 0x3F)))
        }
    }

    /// Hex digit value, or 0xFF.
    @inline(__always)
    static func hexValue(_ byte: UInt8) -> UInt8 {
        switch byte {
        case 0x30...0x39: return byte - 0x30
        case 0x41...0x46: return byte - 0x41 + 10
        case 0x61...0x66: return byte - 0x61 + 10
        default: return 0xFF
        }
    }

    /// A `String` from UTF-8 bytes (invalid sequences would become U+FFFD).
    @inline(__always)
    static func string(_ buffer: UnsafeRawBufferPointer) -> String {
        // Typed as UInt8 so that the standard library takes its contiguous fast path.
        String(decoding: buffer.assumingMemoryBound(to: UInt8.self), as: UTF8.self)
    }

    /// Appends raw bytes with one `memcpy`.
    @inline(__always)
    static func append(_ bytes: UnsafeRawBufferPointer, to out: inout [UInt8]) {
        out.append(contentsOf: bytes.assumingMemoryBound(to: UInt8.self))
    }

    /// A `String` from header bytes: UTF-8 when valid, else Latin-1 (every byte one scalar).
    static func headerString(_ buffer: UnsafeRawBufferPointer) -> String {
        if isASCII(buffer) || isValidUTF8(buffer) { return string(buffer) }
        var out: [UInt8] = []
        out.reserveCapacity(buffer.count * 2)
        for b in buffer { appendUTF8(UInt32(b), to: &out) }
        return out.withUnsafeBytes { string($0) }
    }

    /// A `String` from UTF-8 bytes with every CRLF turned into LF.
    static func stringWithLFLineEnds(_ bytes: UnsafeRawBufferPointer) -> String {
        guard var cr = find(cr, in: bytes, from: 0, to: bytes.count) else { return string(bytes) }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var start = 0
        while true {
            if cr + 1 < bytes.count, bytes[cr + 1] == lf {
                append(UnsafeRawBufferPointer(rebasing: bytes[start..<cr]), to: &out)
                start = cr + 1
            }
            guard let next = find(self.cr, in: bytes, from: cr + 1, to: bytes.count) else { break }
            cr = next
        }
        append(UnsafeRawBufferPointer(rebasing: bytes[start...]), to: &out)
        return out.withUnsafeBytes { string($0) }
    }
}
