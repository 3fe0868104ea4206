/// The corpus generators' random numbers: xoshiro256** seeded through SplitMix64.
///
/// Written here rather than taken from the standard library so that a seed gives the same
/// corpus, byte for byte, on every machine and every Swift version: `SystemRandomNumberGenerator`
/// cannot be seeded, and `Int.random(in:using:)` does not promise a stable algorithm.
/// Only integer arithmetic decides values; `unit()` builds a `Double` from 53 exact bits.
public struct CorpusRandom: RandomNumberGenerator, Sendable {
    private var s0: UInt64
    private var s1: UInt64
    private var s2: UInt64
    private var s3: UInt64

    /// Seeds the four state words with SplitMix64, as the xoshiro authors recommend.
    public init(seed: UInt64) {
        var mix = seed
        func splitMix() -> UInt64 {
            mix &+= 0x9E37_79B9_7F4A_7C15
            var z = mix
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        s0 = splitMix()
        s1 = splitMix()
        s2 = splitMix()
        s3 = splitMix()
    }

    /// The next 64 random bits (xoshiro256**).
    public mutating func next() -> UInt64 {
        let result = ((s1 &* 5) << 7 | (s1 &* 5) >> 57) &* 9
        let t = s1 << 17
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        s3 = s3 << 45 | s3 >> 19
        return result
    }

    /// A uniform integer in `range` (Lemire's multiply-shift with rejection: no modulo bias).
    public mutating func int(in range: ClosedRange<Int>) -> Int {
        let span = UInt64(bitPattern: Int64(range.upperBound &- range.lowerBound)) &+ 1
        if span == 0 { return Int(truncatingIfNeeded: next()) }  // the full 64-bit range
        var product = next().multipliedFullWidth(by: span)
        if product.low < span {
            let threshold = (0 &- span) % span
            while product.low < threshold { product = next().multipliedFullWidth(by: span) }
        }
        return range.lowerBound &+ Int(truncatingIfNeeded: product.high)
    }

    /// A uniform integer in `range`.
    public mutating func int(in range: Range<Int>) -> Int {
        int(in: range.lowerBound...(range.upperBound - 1))
    }

    /// A uniform value in [0, 1) from 53 random bits.
    public mutating func unit() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }

    /// True with probability `p`.
    public mutating func chance(_ p: Double) -> Bool {
        unit() < p
    }

    /// One element of a non-empty collection.
    public mutating func pick<C: RandomAccessCollection>(_ items: C) -> C.Element where C.Index == Int {
        items[items.startIndex + int(in: 0..<items.count)]
    }

    /// An index chosen with the given relative weights.
    public mutating func weighted(_ weights: [Int]) -> Int {
        var roll = int(in: 0..<weights.reduce(0, +))
        for (index, weight) in weights.enumerated() {
            if roll < weight { return index }
            roll -= weight
        }
        return weights.count - 1
    }

    /// `count` decimal digits, leading zeros kept: `digits(4)` → "0042".
    public mutating func digits(_ count: Int) -> String {
        var text = ""
        text.reserveCapacity(count)
        for _ in 0..<count { text.unicodeScalars.append(Unicode.Scalar(UInt8(48 + int(in: 0...9)))) }
        return text
    }

    /// Fills a buffer with random bytes, eight at a time.
    public mutating func fill(_ buffer: UnsafeMutableRawBufferPointer) {
        var offset = 0
        while offset + 8 <= buffer.count {
            buffer.storeBytes(of: next().littleEndian, toByteOffset: offset, as: UInt64.self)
            offset += 8
        }
        if offset < buffer.count {
            var last = next().littleEndian
            withUnsafeBytes(of: &last) { bytes in
                for i in 0..<(buffer.count - offset) { buffer[offset + i] = bytes[i] }
            }
        }
    }
}
