extension String {
    /// Calls `body` with the string's UTF-8 bytes where they are. `withUTF8` needs a `var`,
    /// and so a copy of the string (a retain and a release) on every call; the hot path
    /// reads a dozen strings a message this way. Typed throws pass through.
    @inline(__always)
    func withUTF8Bytes<R, E: Error>(_ body: (UnsafeBufferPointer<UInt8>) throws(E) -> R) throws(E) -> R {
        let result = utf8.withContiguousStorageIfAvailable { bytes in Result { () throws(E) in try body(bytes) } }
        if let result { return try result.get() }
        // Not contiguous UTF-8 (a bridged string): `withUTF8` makes it so.
        var copy = self
        return try copy.withUTF8 { bytes in Result { () throws(E) in try body(bytes) } }.get()
    }
}
