/// Base64 (RFC 2045 §6.8) decoding, byte level and lenient.
///
/// Whitespace and line breaks are ignored; decoding stops at the first `=` (padding);
/// other characters outside the alphabet are skipped and counted, so the caller can
/// report them; missing padding is tolerated (a final group of two or three characters
/// still yields its bytes; a lone final character is counted as invalid).
enum MIMEBase64 {
    /// 0–63 for the alphabet, 0xFE for whitespace, 0xFD for `=`, 0xFF for anything else.
    static let table: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        for (value, char) in alphabet.enumerated() { table[Int(char)] = UInt8(value) }
        for ws in [" ", "\t", "\r", "\n", "\u{0B}", "\u{0C}"] { table[Int(ws.utf8.first!)] = 0xFE }
        table[Int(UInt8(ascii: "="))] = 0xFD
        return table
    }()

    /// The decoded bytes and how many characters had to be skipped.
    static func decode(_ input: UnsafeRawBufferPointer) -> (bytes: [UInt8], invalid: Int) {
        let n = input.count
        var invalid = 0
        var written = 0
        let out = [UInt8](unsafeUninitializedCapacity: n / 4 * 3 + 3) { buffer, count in
            table.withUnsafeBufferPointer { table in
                var acc: UInt32 = 0
                var quantum = 0
                var i = 0
                while i < n {
                    // Fast path: four alphabet characters in a row.
                    if quantum == 0, i + 4 <= n {
                        let a = table[Int(input[i])]
                        let b = table[Int(input[i + 1])]
                        let c = table[Int(input[i + 2])]
                        let d = table[Int(input[i + 3])]
                        if (a | b | c | d) < 64 {
                            let v = UInt32(a) << 18 | UInt32(b) << 12 | UInt32(c) << 6 | UInt32(d)
                            buffer[written] = UInt8(truncatingIfNeeded: v >> 16)
                            buffer[written + 1] = UInt8(truncatingIfNeeded: v >> 8)
                            buffer[written + 2] = UInt8(truncatingIfNeeded: v)
                            written += 3
                            i += 4
                            continue
                        }
                    }
                    let v = table[Int(input[i])]
                    i += 1
                    if v < 64 {
                        acc = acc << 6 | UInt32(v)
                        quantum += 1
                        if quantum == 4 {
                            buffer[written] = UInt8(truncatingIfNeeded: acc >> 16)
                            buffer[written + 1] = UInt8(truncatingIfNeeded: acc >> 8)
                            buffer[written + 2] = UInt8(truncatingIfNeeded: acc)
                            written += 3
                            quantum = 0
                            acc = 0
                        }
                    } else if v == 0xFD {
                        break
                    } else if v == 0xFF {
                        invalid += 1
                    }
                }
                switch quantum {
                case 2:
                    buffer[written] = UInt8(truncatingIfNeeded: acc >> 4)
                    written += 1
                case 3:
                    buffer[written] = UInt8(truncatingIfNeeded: acc >> 10)
                    buffer[written + 1] = UInt8(truncatingIfNeeded: acc >> 2)
                    written += 2
                case 1:
                    invalid += 1
                default:
                    break
                }
            }
            count = written
        }
        return (out, invalid)
    }
}
