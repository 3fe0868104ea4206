#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Converts text in a declared charset to UTF-8 bytes.
///
/// UTF-8, US-ASCII, ISO-8859-1 and windows-1252 (the bulk of mail) are converted by hand;
/// everything else goes through iconv. Labels lie often, so:
/// - UTF-8 that is not valid UTF-8: each invalid byte is read as windows-1252, valid
///   sequences are kept (Latin-1 text labelled UTF-8 comes out right, and one stray
///   byte does not ruin the rest);
/// - a single-byte label on bytes that are valid UTF-8 with non-ASCII characters: UTF-8
///   (UTF-8 text labelled Latin-1; real Latin-1 or KOI8-R text almost never validates);
/// - US-ASCII and ISO-8859-1 are read as windows-1252, as browsers do (WHATWG Encoding):
///   0x80–0x9F are curly quotes and the euro sign in real mail, not C1 controls;
/// - a multi-byte label (Shift_JIS, GBK, …) is trusted as long as iconv accepts the bytes;
///   an isolated bad sequence becomes U+FFFD;
/// - no label, a label iconv does not know, or bytes iconv rejects: valid UTF-8 stays
///   UTF-8, else windows-1252.
enum MIMECharset: Sendable, Equatable {
    case utf8
    /// US-ASCII, ISO-8859-1 and windows-1252 alike.
    case windows1252
    /// A charset where bytes below 0x80 are ASCII, converted by iconv under this name.
    case singleByte(String)
    /// A multi-byte charset that keeps ASCII as ASCII (Shift_JIS, GBK, EUC-*, Big5).
    case multiByte(String)
    /// A charset whose ASCII-looking bytes mean something else (UTF-16, UTF-7, ISO-2022-*).
    case stateful(String)
    /// No label.
    case unknown

    /// The charset for a MIME label like `"utf-8"`, `ISO-8859-1`, `x-sjis`, `utf-8*en`.
    init(label: String?) {
        guard var label else {
            self = .unknown
            return
        }
        self = label.withUTF8 { MIMECharset(label: UnsafeRawBufferPointer($0)) }
    }

    /// The charset for a label given as bytes; quotes, whitespace and an RFC 2231
    /// `*language` suffix are ignored, case too.
    init(label bytes: UnsafeRawBufferPointer) {
        var lo = 0
        var hi = bytes.count
        if let star = MIMEBytes.find(UInt8(ascii: "*"), in: bytes, from: 0, to: hi) { hi = star }
        func isNoise(_ b: UInt8) -> Bool {
            MIMEBytes.isWhitespace(b) || b == UInt8(ascii: "\"") || b == UInt8(ascii: "'")
        }
        while lo < hi, isNoise(bytes[lo]) { lo += 1 }
        while hi > lo, isNoise(bytes[hi - 1]) { hi -= 1 }
        guard hi > lo, hi - lo <= 64 else {
            self = .unknown
            return
        }
        let label = String(unsafeUninitializedCapacity: hi - lo) { out in
            for i in lo..<hi { out[i - lo] = MIMEBytes.lower(bytes[i]) }
            return hi - lo
        }
        switch label {
        case "utf-8", "utf8", "unicode-1-1-utf-8", "x-unicode20utf8": self = .utf8
        case "us-ascii", "ascii", "ansi_x3.4-1968", "iso-8859-1", "iso8859-1", "iso_8859-1", "latin1",
            "latin-1", "l1", "iso-ir-100", "cp819", "ibm819", "windows-1252", "cp1252", "x-cp1252", "cp-1252":
            self = .windows1252
        default:
            let name = Self.aliases[label] ?? label.uppercased()
            if name.hasPrefix("UTF-16") || name.hasPrefix("UTF-32") || name.hasPrefix("UCS-") || name == "UTF-7"
                || name.hasPrefix("ISO-2022") || name.hasPrefix("HZ") {
                self = .stateful(name)
            } else if Self.multiByteNames.contains(where: { name.hasPrefix($0) }) {
                self = .multiByte(name)
            } else {
                self = .singleByte(name)
            }
        }
    }

    /// Labels iconv spells differently, and the WHATWG supersets (GB2312 → GBK, EUC-KR → CP949).
    private static let aliases: [String: String] = [
        "x-sjis": "SHIFT_JIS", "shift-jis": "SHIFT_JIS", "sjis": "SHIFT_JIS", "ms_kanji": "SHIFT_JIS",
        "windows-31j": "CP932", "cp932": "CP932", "x-euc-jp": "EUC-JP",
        "gb2312": "GBK", "gb_2312-80": "GBK", "x-gbk": "GBK", "chinese": "GBK", "euc-cn": "GBK",
        "ks_c_5601-1987": "CP949", "euc-kr": "CP949", "ks_c_5601": "CP949", "windows-949": "CP949",
        "big5": "BIG5-HKSCS", "x-big5": "BIG5-HKSCS", "cn-big5": "BIG5-HKSCS",
        "iso-8859-8-i": "ISO-8859-8", "windows-874": "CP874", "tis-620": "TIS-620",
        "unicode-1-1-utf-7": "UTF-7", "utf7": "UTF-7", "x-mac-roman": "MACINTOSH", "macintosh": "MACINTOSH",
        "x-mac-cyrillic": "MAC-CYRILLIC", "koi8-u": "KOI8-U", "koi8-r": "KOI8-R", "koi8": "KOI8-R",
        "utf-16": "UTF-16", "utf-16le": "UTF-16LE", "utf-16be": "UTF-16BE",
    ]

    private static let multiByteNames = [
        "SHIFT_JIS", "CP932", "EUC-", "GBK", "GB18030", "GB2312", "CP936", "CP949", "BIG5", "CP950", "UHC",
        "JOHAB",
    ]

    /// `bytes` converted to UTF-8, following the fallbacks above.
    static func utf8(_ bytes: UnsafeRawBufferPointer, charset: MIMECharset) -> [UInt8] {
        withUTF8(bytes, charset: charset) { Array($0) }
    }

    /// Calls `body` with `bytes` converted to UTF-8; bytes that need no conversion (the
    /// common case) are passed through without a copy.
    static func withUTF8<R>(
        _ bytes: UnsafeRawBufferPointer, charset: MIMECharset, _ body: (UnsafeRawBufferPointer) -> R
    ) -> R {
        withUTF8Text(bytes, charset: charset) { utf8, _ in body(utf8) }
    }

    /// `withUTF8`, also telling `body` whether the text may need composing (NFC): false when it
    /// is known to hold nothing from U+0300 on (valid UTF-8 checked in the same pass; a
    /// single-byte charset's Latin letters, all precomposed), true otherwise.
    static func withUTF8Text<R>(
        _ bytes: UnsafeRawBufferPointer, charset: MIMECharset, _ body: (UnsafeRawBufferPointer, _ mayNeedComposing: Bool) -> R
    ) -> R {
        let converted: [UInt8]
        switch charset {
        case .utf8, .unknown, .windows1252, .singleByte:
            // Valid UTF-8 whatever the label says: as it is.
            let validity = MIMEBytes.utf8Validity(bytes)
            if validity != .invalid { return body(bytes, validity == .fromCombiningMarks) }
        case .multiByte, .stateful:
            break
        }
        switch charset {
        case .utf8, .unknown:
            converted = repairedUTF8(bytes)
        case .windows1252:
            // Every windows-1252 letter is precomposed.
            return windows1252(bytes).withUnsafeBytes { body($0, false) }
        case .singleByte(let name):
            converted = viaIconv(bytes, from: name) ?? windows1252(bytes)
        case .multiByte(let name):
            if MIMEBytes.isASCII(bytes) { return body(bytes, false) }
            converted = viaIconv(bytes, from: name) ?? fallback(bytes)
        case .stateful(let name):
            converted = viaIconv(bytes, from: name) ?? fallback(bytes)
        }
        return converted.withUnsafeBytes { body($0, true) }
    }

    /// The charset an HTML document declares in its first kilobyte (`<meta charset="…">`
    /// or `content="text/html; charset=…"`), for HTML parts whose MIME header has none.
    static func declaredInHTML(_ bytes: UnsafeRawBufferPointer) -> MIMECharset? {
        let end = min(bytes.count, 1024)
        var i = 0
        while let c = MIMEBytes.find(UInt8(ascii: "="), in: bytes, from: i, to: end) {
            i = c + 1
            guard c >= 7, MIMEBytes.matchesLowercased(bytes, at: c - 7, end: c, "charset") else { continue }
            var lo = c + 1
            while lo < end, bytes[lo] == UInt8(ascii: "\"") || bytes[lo] == UInt8(ascii: "'") || bytes[lo] == 32 {
                lo += 1
            }
            var hi = lo
            while hi < end, MIMEBytes.lower(bytes[hi]) &- 0x61 < 26 || bytes[hi] &- 0x30 < 10
                || bytes[hi] == UInt8(ascii: "-") || bytes[hi] == UInt8(ascii: "_") || bytes[hi] == UInt8(ascii: ".")
                || bytes[hi] == UInt8(ascii: ":") {
                hi += 1
            }
            guard hi > lo else { return nil }
            return MIMECharset(label: UnsafeRawBufferPointer(rebasing: bytes[lo..<hi]))
        }
        return nil
    }

    /// `bytes` decoded as UTF-8 when valid, else as windows-1252.
    static func fallback(_ bytes: UnsafeRawBufferPointer) -> [UInt8] {
        MIMEBytes.isValidUTF8(bytes) ? Array(bytes) : windows1252(bytes)
    }

    /// Valid UTF-8 sequences kept, every other byte read as windows-1252.
    static func repairedUTF8(_ bytes: UnsafeRawBufferPointer) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + bytes.count / 4)
        var i = 0
        let n = bytes.count
        while i < n {
            let b = bytes[i]
            if b < 0x80 {
                out.append(b)
                i += 1
                continue
            }
            let length = MIMEBytes.utf8SequenceLength(bytes, at: i, end: n)
            if length == 0 {
                MIMEBytes.appendUTF8(cp1252[Int(b)], to: &out)
                i += 1
            } else {
                MIMEBytes.append(UnsafeRawBufferPointer(rebasing: bytes[i..<i + length]), to: &out)
                i += length
            }
        }
        return out
    }

    static func windows1252(_ bytes: UnsafeRawBufferPointer) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + bytes.count / 4)
        cp1252.withUnsafeBufferPointer { table in
            for b in bytes {
                if b < 0x80 {
                    out.append(b)
                } else {
                    MIMEBytes.appendUTF8(table[Int(b)], to: &out)
                }
            }
        }
        return out
    }

    /// windows-1252 to Unicode; the five undefined bytes map to the C1 controls (WHATWG).
    static let cp1252: [UInt32] = {
        var table = (0..<256).map { UInt32($0) }
        let high: [UInt32] = [
            0x20AC, 0x81, 0x201A, 0x192, 0x201E, 0x2026, 0x2020, 0x2021, 0x2C6, 0x2030, 0x160, 0x2039, 0x152,
            0x8D, 0x17D, 0x8F, 0x90, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x2DC, 0x2122,
            0x161, 0x203A, 0x153, 0x9D, 0x17E, 0x178,
        ]
        for (i, scalar) in high.enumerated() { table[0x80 + i] = scalar }
        return table
    }()

    /// Converts with iconv; nil if iconv does not know the charset, or if the bytes are
    /// so broken (more than one invalid sequence in 64 bytes) that the label must be a lie.
    /// Isolated invalid sequences become U+FFFD.
    static func viaIconv(_ bytes: UnsafeRawBufferPointer, from name: String) -> [UInt8]? {
        guard let descriptor = openDescriptor(name) else { return nil }
        defer { iconv_close(descriptor) }
        var out = [UInt8](repeating: 0, count: bytes.count * 3 + 16)
        var written = 0
        var invalid = 0
        guard let base = bytes.baseAddress else { return [] }
        var inPointer = UnsafeMutablePointer(mutating: base.assumingMemoryBound(to: CChar.self))
        var inLeft = bytes.count
        while true {
            let result: Int = out.withUnsafeMutableBytes { buffer in
                var outPointer: UnsafeMutablePointer<CChar>? = buffer.baseAddress!
                    .advanced(by: written).assumingMemoryBound(to: CChar.self)
                var outLeft = buffer.count - written
                var inOptional: UnsafeMutablePointer<CChar>? = inPointer
                let r = iconv(descriptor, &inOptional, &inLeft, &outPointer, &outLeft)
                inPointer = inOptional!
                written = buffer.count - outLeft
                return r
            }
            if result != -1 { break }
            let error = errno
            if error == E2BIG {
                out.append(contentsOf: repeatElement(0, count: out.count))
                continue
            }
            // EILSEQ or EINVAL (truncated sequence at the end): one replacement, skip a byte.
            invalid += 1
            if invalid * 64 > bytes.count + 64 { return nil }
            if out.count - written < 3 { out.append(contentsOf: repeatElement(0, count: 16)) }
            out[written] = 0xEF
            out[written + 1] = 0xBF
            out[written + 2] = 0xBD
            written += 3
            inPointer += 1
            inLeft -= 1
            if inLeft == 0 { break }
        }
        // Flush the shift state of stateful encodings.
        out.withUnsafeMutableBytes { buffer in
            var outPointer: UnsafeMutablePointer<CChar>? = buffer.baseAddress!
                .advanced(by: written).assumingMemoryBound(to: CChar.self)
            var outLeft = buffer.count - written
            _ = iconv(descriptor, nil, nil, &outPointer, &outLeft)
            written = buffer.count - outLeft
        }
        out.removeLast(out.count - written)
        if invalid > 0, MIMEBytes.isValidUTF8(bytes) { return Array(bytes) }
        return out
    }

    private static func openDescriptor(_ name: String) -> iconv_t? {
        let descriptor = iconv_open("UTF-8", name)
        guard let descriptor, Int(bitPattern: descriptor) != -1 else { return nil }
        return descriptor
    }
}
