/// Base64 as MIME writes it: 76 characters a line, each line ending in "\n" (what Python's
/// `base64.encodebytes` produces).
public enum Base64Lines {
    static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
    /// Input bytes per output line: 57 bytes make 76 characters.
    public static let bytesPerLine = 57

    /// Encodes `bytes` into `output`, appending.
    public static func encode(_ bytes: UnsafeRawBufferPointer, into output: inout [UInt8]) {
        let lines = (bytes.count + bytesPerLine - 1) / bytesPerLine
        let needed = (bytes.count + 2) / 3 * 4 + lines
        let start = output.count
        output.append(contentsOf: repeatElement(0, count: needed))
        output.withUnsafeMutableBufferPointer { out in
            alphabet.withUnsafeBufferPointer { table in
                var o = start
                var i = 0
                while i < bytes.count {
                    let lineEnd = min(i + bytesPerLine, bytes.count)
                    while i + 3 <= lineEnd {
                        let n = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2])
                        out[o] = table[Int(n >> 18)]
                        out[o + 1] = table[Int(n >> 12 & 63)]
                        out[o + 2] = table[Int(n >> 6 & 63)]
                        out[o + 3] = table[Int(n & 63)]
                        o += 4
                        i += 3
                    }
                    if i < lineEnd {  // the last 1 or 2 bytes, padded
                        let rest = lineEnd - i
                        let n = UInt32(bytes[i]) << 16 | (rest == 2 ? UInt32(bytes[i + 1]) << 8 : 0)
                        out[o] = table[Int(n >> 18)]
                        out[o + 1] = table[Int(n >> 12 & 63)]
                        out[o + 2] = rest == 2 ? table[Int(n >> 6 & 63)] : UInt8(ascii: "=")
                        out[o + 3] = UInt8(ascii: "=")
                        o += 4
                        i = lineEnd
                    }
                    out[o] = UInt8(ascii: "\n")
                    o += 1
                }
            }
        }
    }

    /// Encodes `bytes`, one line per 57 bytes.
    public static func encode(_ bytes: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        bytes.withUnsafeBytes { encode($0, into: &output) }
        return output
    }

    /// Encodes `bytes` on one line, without a newline (for header values).
    public static func encodeUnwrapped(_ bytes: [UInt8]) -> String {
        var text = encode(bytes)
        text.removeAll { $0 == UInt8(ascii: "\n") }
        return String(decoding: text, as: UTF8.self)
    }
}
