import Foundation

/// A unit-length embedding kept in 8 bits a dimension: a scale and `dimension` signed bytes
/// (value ≈ byte × scale). A quarter of a float vector's size, so a flat scan over 100,000 of them
/// reads 39 MB, not 154; the order of similarities it gives is that of the floats' to about 0.002
/// (a component's rounding error is at most half a step of 1/127 of the largest one).
public struct MeaningVector: Sendable, Equatable {
    /// Multiplies every byte back into the float it stands for.
    public let scale: Float
    /// The components, each rounded to the nearest step of `scale`.
    public let bytes: [Int8]

    /// Quantizes `floats` (any length; the largest component's magnitude becomes 127).
    public init(_ floats: [Float]) {
        let largest = floats.reduce(Float(0)) { max($0, abs($1)) }
        let scale = largest > 0 ? largest / 127 : 1
        self.scale = scale
        self.bytes = floats.map { Int8(clamping: Int(($0 / scale).rounded())) }
    }

    /// Reads what `data` wrote; nil for a blob of the wrong length.
    public init?(data: Data, dimension: Int) {
        guard data.count == 4 + dimension else { return nil }
        let bits = data.prefix(4).enumerated().reduce(UInt32(0)) { $0 | UInt32($1.element) << (8 * UInt32($1.offset)) }
        scale = Float(bitPattern: bits)
        bytes = data.dropFirst(4).map { Int8(bitPattern: $0) }
    }

    /// The stored form: the scale (4 bytes, little-endian IEEE 754) then the components.
    public var data: Data {
        var data = Data(capacity: 4 + bytes.count)
        let bits = scale.bitPattern
        for shift in stride(from: 0, to: 32, by: 8) { data.append(UInt8(truncatingIfNeeded: bits >> UInt32(shift))) }
        bytes.withUnsafeBytes { data.append(contentsOf: $0) }
        return data
    }
}

/// Many `MeaningVector`s in one contiguous block, scanned against a query: the search's flat index.
/// At 100,000 vectors a scan is about 38 million byte products, a few milliseconds on one core
/// with the loop vectorized; an index (HNSW, IVF) would pay only from millions of distinct vectors.
public struct MeaningMatrix: Sendable {
    /// The vectors' length.
    public let dimension: Int
    private var components: [Int8] = []
    private var scales: [Float] = []

    public init(dimension: Int) { self.dimension = dimension }

    /// How many vectors it holds.
    public var count: Int { scales.count }

    /// Adds a vector (of `dimension` components) at the end.
    public mutating func append(_ vector: MeaningVector) {
        precondition(vector.bytes.count == dimension, "a vector of \(vector.bytes.count) components in a matrix of \(dimension)")
        components.append(contentsOf: vector.bytes)
        scales.append(vector.scale)
    }

    /// Adds a vector in its stored form (`MeaningVector.data`) without decoding it into arrays
    /// first; false (nothing added) for a blob of the wrong length.
    @discardableResult
    public mutating func append(stored data: Data) -> Bool {
        guard data.count == 4 + dimension else { return false }
        data.withUnsafeBytes { raw in
            var bits: UInt32 = 0
            for index in 0..<4 { bits |= UInt32(raw[index]) << UInt32(8 * index) }
            scales.append(Float(bitPattern: bits))
            components.append(contentsOf: UnsafeRawBufferPointer(rebasing: raw[4...]).bindMemory(to: Int8.self))
        }
        return true
    }

    /// The cosine similarity of every vector with `query` (unit length), in the order added.
    public func similarities(to query: [Float]) -> [Float] {
        precondition(query.count == dimension)
        // The query in bytes too: integer products, summed in 32 bits (384 × 127 × 127 fits), then
        // scaled once per vector.
        let q = MeaningVector(query)
        var result = [Float](repeating: 0, count: count)
        components.withUnsafeBufferPointer { all in
            q.bytes.withUnsafeBufferPointer { query in
                for row in 0..<count {
                    let base = all.baseAddress! + row * dimension
                    var sum: Int32 = 0
                    for i in 0..<dimension { sum &+= Int32(base[i]) &* Int32(query[i]) }
                    result[row] = Float(sum) * scales[row] * q.scale
                }
            }
        }
        return result
    }
}
