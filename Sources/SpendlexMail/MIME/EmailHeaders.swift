/// The header block of an RFC 5322 message, parsed cheaply for routing: no body is touched.
///
/// Parsing only records where each field is; a value becomes a `String` when it is asked
/// for (``field(_:)``, ``fields``, the accessors), so routing on `From` costs one field's
/// worth of work, not twenty. The header block's bytes are copied; the message is not kept.
public struct EmailHeaders: Sendable {
    /// The header block's bytes.
    let block: [UInt8]
    /// Where each field is in `block`, in order.
    let spans: [MIMEHeaderScanner.Field]

    /// Byte offset where the body starts (just after the blank line), or the message's
    /// length if none. When a line that is not a field ends the header block without a
    /// blank line, the body starts at that line.
    public let bodyOffset: Int

    /// For each `KnownField` (by raw value), the index in `spans` of its first occurrence, or -1.
    private let knownSpans: SIMD8<Int32>

    init(block: [UInt8], spans: [MIMEHeaderScanner.Field], bodyOffset: Int) {
        self.block = block
        self.spans = spans
        self.bodyOffset = bodyOffset
        knownSpans = block.withUnsafeBytes { Self.knownSpans(spans, in: $0) }
    }

    /// The fields routing and decoding read from every message. Where they are is found in
    /// one pass over the names when the headers are parsed: looking each one up on its own
    /// compared its name with every field's, seven times a message, and the branches on
    /// name lengths were mispredicted at every step.
    enum KnownField: Int {
        case from, subject, messageID, date, contentType, contentTransferEncoding, contentDisposition
    }

    private static func knownSpans(_ spans: [MIMEHeaderScanner.Field], in buffer: UnsafeRawBufferPointer)
        -> SIMD8<Int32>
    {
        var found = SIMD8<Int32>(repeating: -1)
        for index in spans.indices {
            let name = spans[index].name
            let field: KnownField?
            // A name's length, then its first eight bytes lower-cased, then (for names longer
            // than eight bytes) the whole name.
            switch name.count {
            case 4:
                let head = prefixKey(buffer, name)
                field = head == KnownKey.from ? .from : head == KnownKey.date ? .date : nil
            case 7: field = prefixKey(buffer, name) == KnownKey.subject ? .subject : nil
            case 10:
                field = prefixKey(buffer, name) == KnownKey.message && sameName(buffer, name, "message-id")
                    ? .messageID : nil
            case 12, 19, 25:
                guard prefixKey(buffer, name) == KnownKey.content else { field = nil; break }
                field = name.count == 12 ? (sameName(buffer, name, "content-type") ? .contentType : nil)
                    : name.count == 19 ? (sameName(buffer, name, "content-disposition") ? .contentDisposition : nil)
                    : (sameName(buffer, name, "content-transfer-encoding") ? .contentTransferEncoding : nil)
            default: field = nil
            }
            if let field, found[field.rawValue] < 0 { found[field.rawValue] = Int32(index) }
        }
        return found
    }

    /// The first eight bytes (or fewer) of a field name, lower-cased, in a little-endian integer.
    @inline(__always)
    private static func prefixKey(_ buffer: UnsafeRawBufferPointer, _ name: Range<Int>) -> UInt64 {
        let count = min(name.count, 8)
        var word: UInt64
        if name.lowerBound + 8 <= buffer.count {
            word = buffer.loadUnaligned(fromByteOffset: name.lowerBound, as: UInt64.self)
            if count < 8 { word &= (1 << (8 * UInt64(count))) - 1 }
        } else {
            word = 0
            for offset in 0..<count { word |= UInt64(buffer[name.lowerBound + offset]) << (8 * UInt64(offset)) }
        }
        return MIMEBytes.lower8(word)
    }

    /// `prefixKey` of the known names.
    private enum KnownKey {
        static let from = key("from")
        static let date = key("date")
        static let subject = key("subject")
        static let message = key("message-")
        static let content = key("content-")

        private static func key(_ name: StaticString) -> UInt64 {
            var word: UInt64 = 0
            for offset in 0..<name.utf8CodeUnitCount { word |= UInt64(name.utf8Start[offset]) << (8 * UInt64(offset)) }
            return word
        }
    }

    /// `sameName` with a lower-case literal.
    private static func sameName(_ buffer: UnsafeRawBufferPointer, _ name: Range<Int>, _ wanted: StaticString) -> Bool {
        sameName(buffer, name, UnsafeRawBufferPointer(start: wanted.utf8Start, count: wanted.utf8CodeUnitCount))
    }

    /// Headers made from fields (for tests and for messages that arrive already split,
    /// like SMS exports); `bodyOffset` is taken as given.
    public init(fields: [(name: String, value: String)], bodyOffset: Int) {
        var block: [UInt8] = []
        for field in fields {
            block += Array(field.name.utf8) + Array(": ".utf8) + Array(field.value.utf8) + [MIMEBytes.lf]
        }
        var spans: [MIMEHeaderScanner.Field] = []
        _ = block.withUnsafeBytes { buffer in
            MIMEHeaderScanner.scan(buffer, from: 0, to: buffer.count, skipEnvelope: false) { spans.append($0) }
        }
        self.init(block: block, spans: spans, bodyOffset: bodyOffset)
    }

    /// Raw fields in order, names as written, values unfolded (the line breaks before
    /// folding whitespace removed, the whitespace kept, as RFC 5322 §2.2.3 says; leading
    /// and trailing whitespace trimmed) but not decoded. 8-bit bytes are read as UTF-8,
    /// else Latin-1. Built on each call: prefer ``field(_:)`` for single fields.
    public var fields: [(name: String, value: String)] {
        block.withUnsafeBytes { buffer in
            spans.map { span in
                (MIMEBytes.headerString(UnsafeRawBufferPointer(rebasing: buffer[span.name])),
                 MIMEHeaderScanner.valueString(buffer, span))
            }
        }
    }

    /// The first field named `name`, case-insensitively, unfolded, not decoded.
    public func field(_ name: String) -> String? {
        var name = name
        return name.withUTF8 { wanted in
            block.withUnsafeBytes { buffer in
                guard let span = firstSpan(named: UnsafeRawBufferPointer(wanted), in: buffer) else { return nil }
                return MIMEHeaderScanner.valueString(buffer, span)
            }
        }
    }

    /// Every field named `name`, case-insensitively, in order.
    public func fields(named name: String) -> [String] {
        var name = name
        return name.withUTF8 { wanted in
            block.withUnsafeBytes { buffer in
                spans.filter { Self.sameName(buffer, $0.name, UnsafeRawBufferPointer(wanted)) }
                    .map { MIMEHeaderScanner.valueString(buffer, $0) }
            }
        }
    }

    /// Calls `body` with the unfolded, trimmed bytes of the first field `field`, without
    /// building a `String`; nil when there is no such field.
    func withValue<R>(of field: KnownField, _ body: (UnsafeRawBufferPointer) -> R) -> R? {
        let index = Int(knownSpans[field.rawValue])
        guard index >= 0 else { return nil }
        let span = spans[index]
        return block.withUnsafeBytes { buffer -> R? in
            if !span.isFolded {
                let (lo, hi) = MIMEHeaderScanner.trimmed(buffer, span.value)
                return body(UnsafeRawBufferPointer(rebasing: buffer[lo..<max(lo, hi)]))
            }
            var scratch: [UInt8] = []
            MIMEHeaderScanner.unfoldedValue(buffer, span, into: &scratch)
            return scratch.withUnsafeBytes(body)
        }
    }

    private func firstSpan(
        named wanted: UnsafeRawBufferPointer, in buffer: UnsafeRawBufferPointer
    ) -> MIMEHeaderScanner.Field? {
        for span in spans where Self.sameName(buffer, span.name, wanted) {
            return span
        }
        return nil
    }

    /// `Subject` with RFC 2047 encoded words decoded (B and Q, any iconv charset,
    /// adjacent encoded words joined without the whitespace between them, words split
    /// across folded lines).
    public var subject: String? {
        withValue(of: .subject) { raw in
            MIMEEncodedWords.decode(raw) ?? MIMEBytes.headerString(raw)
        }
    }

    /// `Message-ID` without angle brackets and surrounding whitespace; nil when empty.
    public var messageID: String? {
        withValue(of: .messageID) { raw -> String? in
            var lo = 0
            var hi = raw.count
            if lo < hi, raw[lo] == UInt8(ascii: "<") {
                lo += 1
                hi = MIMEBytes.find(UInt8(ascii: ">"), in: raw, from: lo, to: hi) ?? hi
            } else if lo < hi, raw[hi - 1] == UInt8(ascii: ">") {
                hi -= 1
            }
            let (a, b) = MIMEHeaderScanner.trimmed(raw, lo..<hi)
            guard a < b else { return nil }
            return MIMEBytes.headerString(UnsafeRawBufferPointer(rebasing: raw[a..<b]))
        } ?? nil
    }

    /// ASCII case-insensitive comparison of a field name in `buffer` with `wanted`.
    @inline(__always)
    static func sameName(
        _ buffer: UnsafeRawBufferPointer, _ name: Range<Int>, _ wanted: UnsafeRawBufferPointer
    ) -> Bool {
        guard name.count == wanted.count else { return false }
        var i = 0
        var j = name.lowerBound
        // Eight bytes at a time: routing and decoding look up seven fields of every message,
        // and most lookups end in a full compare of a name such as "content-transfer-encoding".
        while i + 8 <= wanted.count {
            let a = buffer.loadUnaligned(fromByteOffset: j, as: UInt64.self)
            let b = wanted.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            if MIMEBytes.lower8(a) != MIMEBytes.lower8(b) { return false }
            i += 8
            j += 8
        }
        while i < wanted.count {
            if MIMEBytes.lower(buffer[j]) != MIMEBytes.lower(wanted[i]) { return false }
            i += 1
            j += 1
        }
        return true
    }
}
