/// Quoted-printable (RFC 2045 §6.7) decoding, byte level.
///
/// `=XX` with hex digits in either case becomes the byte; `=` at the end of a line (after
/// optional trailing whitespace, which transports add) is a soft line break and vanishes;
/// any other `=` is kept literally. Hard line breaks are kept as written (CRLF or LF).
enum MIMEQuotedPrintable {
    /// The decoded bytes of a body part.
    static func decode(_ input: UnsafeRawBufferPointer) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(input.count)
        let n = input.count
        var i = 0
        while i < n {
            // Copy the run up to the next '=' in one go.
            guard let eq = MIMEBytes.find(UInt8(ascii: "="), in: input, from: i, to: n) else {
                MIMEBytes.append(UnsafeRawBufferPointer(rebasing: input[i..<n]), to: &out)
                break
            }
            if eq > i { MIMEBytes.append(UnsafeRawBufferPointer(rebasing: input[i..<eq]), to: &out) }
            if eq + 2 < n {
                let hi = MIMEBytes.hexValue(input[eq + 1])
                let lo = MIMEBytes.hexValue(input[eq + 2])
                if hi != 0xFF && lo != 0xFF {
                    out.append(hi << 4 | lo)
                    i = eq + 3
                    continue
                }
            }
            // Soft line break: '=' then optional SP/HTAB, then CRLF, LF or the end of input.
            var j = eq + 1
            while j < n, input[j] == MIMEBytes.space || input[j] == MIMEBytes.tab { j += 1 }
            if j == n {
                i = n
                continue
            }
            if input[j] == MIMEBytes.lf {
                i = j + 1
                continue
            }
            if input[j] == MIMEBytes.cr, j + 1 < n, input[j + 1] == MIMEBytes.lf {
                i = j + 2
                continue
            }
            out.append(UInt8(ascii: "="))
            i = eq + 1
        }
        return out
    }

    /// The `Q` encoding of RFC 2047 encoded words: quoted-printable where `_` is a space.
    static func decodeHeader(_ input: UnsafeRawBufferPointer) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(input.count)
        let n = input.count
        var i = 0
        while i < n {
            let b = input[i]
            if b == UInt8(ascii: "_") {
                out.append(MIMEBytes.space)
            } else if b == UInt8(ascii: "="), i + 2 < n {
                let hi = MIMEBytes.hexValue(input[i + 1])
                let lo = MIMEBytes.hexValue(input[i + 2])
                if hi != 0xFF && lo != 0xFF {
                    out.append(hi << 4 | lo)
                    i += 3
                    continue
                }
                out.append(b)
            } else {
                out.append(b)
            }
            i += 1
        }
        return out
    }
}
