/// RFC 2047 encoded words in unstructured header text: `=?charset?B?...?=` and
/// `=?charset?Q?...?=`, any charset iconv knows, an RFC 2231 `*language` suffix ignored.
///
/// Like Python's `email` package (and most mail readers), encoded words are decoded even
/// when glued to other text, whitespace inside Q text is tolerated, and the whitespace
/// between two adjacent encoded words is dropped. The bytes of adjacent words in the same
/// charset are joined before conversion, so a character split across two words (as
/// some mailers do when folding) survives. A malformed word is left as written.
enum MIMEEncodedWords {
    /// `value` with its encoded words decoded.
    static func decode(_ value: String) -> String {
        var value = value
        let decoded: String? = value.withUTF8 { buffer in
            let raw = UnsafeRawBufferPointer(buffer)
            guard MIMEBytes.find(UInt8(ascii: "?"), in: raw, from: 0, to: raw.count) != nil else { return nil }
            return decode(raw)
        }
        return decoded ?? value
    }

    /// The decoded text of `raw`, or nil when it has no encoded word.
    static func decode(_ raw: UnsafeRawBufferPointer) -> String? {
        let n = raw.count
        var out: [UInt8] = []
        var pending: (charset: UnsafeRawBufferPointer, bytes: [UInt8])?
        var literalStart = 0
        var i = 0
        var found = false
        func flush(_ out: inout [UInt8]) {
            guard let word = pending else { return }
            let charset = MIMECharset(label: word.charset)
            out += word.bytes.withUnsafeBytes { MIMECharset.utf8($0, charset: charset) }
            pending = nil
        }
        let opener: StaticString = "=?"
        let opening = UnsafeRawBufferPointer(start: opener.utf8Start, count: 2)
        while let start = MIMEBytes.find(opening, in: raw, from: i, to: n) {
            guard let word = parseWord(raw, at: start) else {
                i = start + 1
                continue
            }
            if !found {
                found = true
                out.reserveCapacity(n)
            }
            let between = UnsafeRawBufferPointer(rebasing: raw[literalStart..<start])
            let onlySpace = between.allSatisfy(MIMEBytes.isWhitespace)
            if !(pending != nil && onlySpace) {
                flush(&out)
                appendLiteral(between, to: &out)
            }
            var bytes: [UInt8] = []
            if word.isBase64 {
                bytes = MIMEBase64.decode(word.text).bytes
            } else {
                bytes = MIMEQuotedPrintable.decodeHeader(word.text)
            }
            if let current = pending, sameCharset(current.charset, word.charset) {
                pending!.bytes += bytes
            } else {
                flush(&out)
                pending = (word.charset, bytes)
            }
            i = word.end
            literalStart = word.end
        }
        guard found else { return nil }
        flush(&out)
        appendLiteral(UnsafeRawBufferPointer(rebasing: raw[literalStart..<n]), to: &out)
        return out.withUnsafeBytes { MIMEBytes.string($0) }
    }

    /// Text outside encoded words: 8-bit bytes are UTF-8 when valid, else Latin-1, as
    /// everywhere in headers.
    private static func appendLiteral(_ bytes: UnsafeRawBufferPointer, to out: inout [UInt8]) {
        if MIMEBytes.isValidUTF8(bytes) {
            MIMEBytes.append(bytes, to: &out)
        } else {
            for b in bytes { MIMEBytes.appendUTF8(UInt32(b), to: &out) }
        }
    }

    struct Word {
        var charset: UnsafeRawBufferPointer
        var isBase64: Bool
        var text: UnsafeRawBufferPointer
        /// Index just past the closing `?=`.
        var end: Int
    }

    /// The encoded word starting at `start` (which points at `=?`), or nil if malformed.
    static func parseWord(_ raw: UnsafeRawBufferPointer, at start: Int) -> Word? {
        let n = raw.count
        var q = start + 2
        while q < n, raw[q] != UInt8(ascii: "?") {
            let b = raw[q]
            if b <= 32 || b >= 127 || b == UInt8(ascii: "=") || q - start > 80 { return nil }
            q += 1
        }
        guard q + 2 < n, raw[q + 2] == UInt8(ascii: "?") else { return nil }
        let isBase64: Bool
        switch raw[q + 1] {
        case UInt8(ascii: "B"), UInt8(ascii: "b"): isBase64 = true
        case UInt8(ascii: "Q"), UInt8(ascii: "q"): isBase64 = false
        default: return nil
        }
        let textStart = q + 3
        var close = textStart
        while true {
            guard let hit = MIMEBytes.find(UInt8(ascii: "?"), in: raw, from: close, to: n) else { return nil }
            if hit + 1 < n, raw[hit + 1] == UInt8(ascii: "=") {
                close = hit
                break
            }
            close = hit + 1
        }
        var charsetEnd = q
        // RFC 2231 language suffix: `utf-8*en`.
        if let star = MIMEBytes.find(UInt8(ascii: "*"), in: raw, from: start + 2, to: q) { charsetEnd = star }
        return Word(
            charset: UnsafeRawBufferPointer(rebasing: raw[(start + 2)..<charsetEnd]),
            isBase64: isBase64,
            text: UnsafeRawBufferPointer(rebasing: raw[textStart..<close]),
            end: close + 2
        )
    }

    private static func sameCharset(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
        guard a.count == b.count else { return false }
        for i in 0..<a.count where MIMEBytes.lower(a[i]) != MIMEBytes.lower(b[i]) {
            return false
        }
        return true
    }
}
