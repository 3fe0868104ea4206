import SpendlexEngine

/// `Content-Transfer-Encoding`, reduced to what decoding needs.
enum MIMETransferEncoding: Sendable {
    /// 7bit, 8bit, binary, absent or unknown: the bytes as they are.
    case identity
    case quotedPrintable
    case base64

    init(_ value: UnsafeRawBufferPointer) {
        let (lo, hi) = MIMEHeaderScanner.trimmed(value, 0..<value.count)
        let token = UnsafeRawBufferPointer(rebasing: value[lo..<hi])
        if token.count == 6, MIMEBytes.matchesLowercased(token, at: 0, end: 6, "base64") {
            self = .base64
        } else if token.count == 16, MIMEBytes.matchesLowercased(token, at: 0, end: 16, "quoted-printable") {
            self = .quotedPrintable
        } else {
            self = .identity
        }
    }
}

/// The headers of one entity (the message or a body part) that decide how it is walked.
struct MIMEEntity {
    var contentType: MIMEContentType
    var encoding: MIMETransferEncoding = .identity
    var isAttachment = false
    /// Where the entity's body starts and ends in the message.
    var body: Range<Int>

    /// Reads the part `buffer[range]`: its header block, then the body.
    init(part range: Range<Int>, in buffer: UnsafeRawBufferPointer, defaultType: MIMEContentType) {
        // The first of each field counts, as Python's `Message.get` has it.
        var contentType: MIMEContentType?
        var encoding: MIMETransferEncoding?
        var isAttachment: Bool?
        var scratch: [UInt8] = []
        let outcome = MIMEHeaderScanner.scan(
            buffer, from: range.lowerBound, to: range.upperBound, skipEnvelope: false
        ) { field in
            let nameLength = field.name.count
            let at = field.name.lowerBound
            guard nameLength >= 12, MIMEBytes.matchesLowercased(buffer, at: at, end: field.name.upperBound, "content-")
            else { return }
            if nameLength == 12, contentType == nil,
               MIMEBytes.matchesLowercased(buffer, at: at + 8, end: field.name.upperBound, "type") {
                MIMEHeaderScanner.unfoldedValue(buffer, field, into: &scratch)
                contentType = scratch.withUnsafeBytes { MIMEContentType($0) }
            } else if nameLength == 25, encoding == nil,
                      MIMEBytes.matchesLowercased(buffer, at: at + 8, end: field.name.upperBound, "transfer-encoding") {
                MIMEHeaderScanner.unfoldedValue(buffer, field, into: &scratch)
                encoding = scratch.withUnsafeBytes { MIMETransferEncoding($0) }
            } else if nameLength == 19, isAttachment == nil,
                      MIMEBytes.matchesLowercased(buffer, at: at + 8, end: field.name.upperBound, "disposition") {
                MIMEHeaderScanner.unfoldedValue(buffer, field, into: &scratch)
                isAttachment = scratch.withUnsafeBytes { Self.isAttachmentDisposition($0) }
            }
        }
        let bodyStart: Int
        switch outcome {
        case .body(let at): bodyStart = at
        case .notAHeader: bodyStart = range.lowerBound
        }
        self.contentType = contentType ?? defaultType
        self.encoding = encoding ?? .identity
        self.isAttachment = isAttachment ?? false
        self.body = bodyStart..<range.upperBound
    }

    /// The message's own entity, from its already parsed header block.
    init(message headers: EmailHeaders, length: Int) {
        contentType = headers.withValue(of: .contentType) { MIMEContentType($0) } ?? .textPlain
        encoding = headers.withValue(of: .contentTransferEncoding) { MIMETransferEncoding($0) } ?? .identity
        isAttachment = headers.withValue(of: .contentDisposition) { Self.isAttachmentDisposition($0) } ?? false
        body = min(headers.bodyOffset, length)..<length
    }

    /// Whether a `Content-Disposition` value's type is `attachment` (what Python's
    /// `is_attachment()` checks; an inline part with a file name is still read).
    static func isAttachmentDisposition(_ value: UnsafeRawBufferPointer) -> Bool {
        let end = MIMEBytes.find(UInt8(ascii: ";"), in: value, from: 0, to: value.count) ?? value.count
        let (lo, hi) = MIMEHeaderScanner.trimmed(value, 0..<end)
        return hi - lo == 10 && MIMEBytes.matchesLowercased(value, at: lo, end: hi, "attachment")
    }
}

/// Walks the MIME tree of one message and collects its readable text.
///
/// Multipart bodies are split with `memmem` on `--boundary`, so an attachment of any
/// size costs one search and is never decoded. Damage is survived and described in
/// ``problems`` with the IMAP-style section number of the part ("part 2.1").
struct MIMEBodyWalker {

    let message: UnsafeRawBufferPointer
    /// How deep multiparts may nest in this message before the rest is skipped.
    let maxDepth: Int
    var plain: [String] = []
    var html: [String] = []
    var problems: [String] = []
    /// Leave text/html parts out (see `MIMEDecoder.bodyPreferringPlain`).
    var skipsHTML = false
    /// Whether a text/html part was left out.
    var skippedHTML = false

    init(message: UnsafeRawBufferPointer, maxDepth: Int = MIMEDecoder.defaultMaxDepth) {
        self.message = message
        self.maxDepth = maxDepth
    }

    /// " in part 2.1", or " in the body" for the message itself.
    private static func place(_ section: [Int]) -> String {
        section.isEmpty ? " in the body" : " in part " + section.map(String.init).joined(separator: ".")
    }

    /// Collects the text of `entity` and of the parts inside it; `section` is its IMAP
    /// section number (empty for the message), `depth` how many multiparts enclose it.
    mutating func walk(_ entity: MIMEEntity, section: [Int], depth: Int) {
        if entity.contentType.isMultipart {
            guard depth < maxDepth else {
                problems.append("multipart nested deeper than \(maxDepth) levels\(Self.place(section)); skipped")
                return
            }
            walkMultipart(entity, section: section, depth: depth)
            return
        }
        guard !entity.isAttachment, entity.contentType.isText else { return }
        let subtype = entity.contentType.subtype
        guard subtype == "plain" || subtype == "html" else { return }
        if skipsHTML, subtype == "html" {
            skippedHTML = true
            return
        }
        let raw = UnsafeRawBufferPointer(rebasing: message[entity.body])
        let charset = entity.contentType.charset.map { $0.withUnsafeBytes { MIMECharset(label: $0) } } ?? .unknown
        let isHTML = subtype == "html"
        switch entity.encoding {
        case .identity:
            appendText(raw, charset: charset, isHTML: isHTML)
        case .quotedPrintable:
            let bytes = MIMEQuotedPrintable.decode(raw)
            bytes.withUnsafeBytes { appendText($0, charset: charset, isHTML: isHTML) }
        case .base64:
            let (bytes, invalid) = MIMEBase64.decode(raw)
            if invalid > 0 {
                problems.append("bad base64\(Self.place(section)): \(invalid) characters skipped")
            }
            bytes.withUnsafeBytes { appendText($0, charset: charset, isHTML: isHTML) }
        }
    }

    /// Converts decoded body bytes to UTF-8 and keeps them as plain text (LF line ends) or HTML text.
    private mutating func appendText(_ bytes: UnsafeRawBufferPointer, charset: MIMECharset, isHTML: Bool) {
        var charset = charset
        if isHTML, charset == .unknown, let declared = MIMECharset.declaredInHTML(bytes) { charset = declared }
        // In normalization form C (see `Message.init`): checked only when the UTF-8 check saw a
        // scalar from U+0300 on, or, in HTML, a character reference wrote one ("&#769;" writes a
        // combining mark in ASCII). Checking every HTML text was a pass over each HTML body.
        let text = MIMECharset.withUTF8Text(bytes, charset: charset) { utf8, mayNeedComposing in
            let (text, fromReferences) = isHTML
                ? HTMLText.converted(fromHTML: utf8) : (MIMEBytes.stringWithLFLineEnds(utf8), false)
            return mayNeedComposing || fromReferences ? NormalizingText.composed(text) : text
        }
        if isHTML {
            html.append(text)
        } else {
            plain.append(text)
        }
    }

    /// A delimiter line `--boundary` or `--boundary--`, optionally followed by spaces.
    private struct Delimiter {
        /// Where the `--` starts.
        var start: Int
        /// Just after the line's LF (or the end).
        var next: Int
        var isClosing: Bool
    }

    /// The next delimiter line at or after `from` within `region` (a delimiter must start a line).
    private func delimiter(
        _ boundary: UnsafeRawBufferPointer, from: Int, region: Range<Int>
    ) -> Delimiter? {
        var i = from
        let end = region.upperBound
        while let hit = MIMEBytes.find(boundary, in: message, from: i, to: end) {
            i = hit + 1
            guard hit == region.lowerBound || message[hit - 1] == MIMEBytes.lf else { continue }
            var j = hit + boundary.count
            var closing = false
            if j + 1 < end, message[j] == UInt8(ascii: "-"), message[j + 1] == UInt8(ascii: "-") {
                closing = true
                j += 2
            }
            while j < end, message[j] == MIMEBytes.space || message[j] == MIMEBytes.tab || message[j] == MIMEBytes.cr {
                j += 1
            }
            if j == end { return Delimiter(start: hit, next: end, isClosing: closing) }
            if message[j] == MIMEBytes.lf { return Delimiter(start: hit, next: j + 1, isClosing: closing) }
        }
        return nil
    }

    private mutating func walkMultipart(_ entity: MIMEEntity, section: [Int], depth: Int) {
        let region = entity.body
        var boundaryBytes: [UInt8]
        if let boundary = entity.contentType.boundary {
            boundaryBytes = [UInt8(ascii: "-"), UInt8(ascii: "-")] + boundary
            let found = boundaryBytes.withUnsafeBytes { delimiter($0, from: region.lowerBound, region: region) } != nil
            if !found {
                if let guessed = guessBoundary(in: region) {
                    problems.append("boundary \"\(String(decoding: boundary, as: UTF8.self))\" not found"
                        + "\(Self.place(section)); used \"\(String(decoding: guessed.dropFirst(2), as: UTF8.self))\"")
                    boundaryBytes = guessed
                } else {
                    problems.append("boundary \"\(String(decoding: boundary, as: UTF8.self))\" not found"
                        + "\(Self.place(section)); read as one text part")
                    readAsText(entity, section: section)
                    return
                }
            }
        } else if let guessed = guessBoundary(in: region) {
            problems.append("multipart without boundary\(Self.place(section)); used \""
                + "\(String(decoding: guessed.dropFirst(2), as: UTF8.self))\"")
            boundaryBytes = guessed
        } else {
            problems.append("multipart without boundary\(Self.place(section)); read as one text part")
            readAsText(entity, section: section)
            return
        }
        let childDefault = entity.contentType.subtype == "digest" ? MIMEContentType.messageRFC822 : .textPlain
        boundaryBytes.withUnsafeBytes { boundary in
            guard var current = delimiter(boundary, from: region.lowerBound, region: region) else { return }
            var index = 1
            // The preamble before the first delimiter is ignored, as is the epilogue after the last.
            while !current.isClosing {
                let partStart = current.next
                let next = delimiter(boundary, from: partStart, region: region)
                var partEnd = next?.start ?? region.upperBound
                if next != nil, partEnd > partStart {
                    // The line break before a delimiter belongs to the delimiter.
                    partEnd -= 1
                    if partEnd > partStart, message[partEnd - 1] == MIMEBytes.cr { partEnd -= 1 }
                }
                let child = MIMEEntity(
                    part: partStart..<max(partStart, partEnd), in: message, defaultType: childDefault)
                walk(child, section: section + [index], depth: depth + 1)
                guard let next else {
                    problems.append("missing closing boundary\(Self.place(section))")
                    return
                }
                current = next
                index += 1
            }
        }
    }

    /// A multipart whose parts cannot be found: its body read as text/plain.
    private mutating func readAsText(_ entity: MIMEEntity, section: [Int]) {
        var single = entity
        single.contentType = .textPlain
        walk(single, section: section, depth: maxDepth)
    }

    /// `--something` from the first line that looks like a delimiter followed by a header,
    /// for multiparts whose declared boundary is missing or wrong.
    private func guessBoundary(in region: Range<Int>) -> [UInt8]? {
        var i = region.lowerBound
        let end = region.upperBound
        while i < end {
            let lineEnd = MIMEBytes.find(MIMEBytes.lf, in: message, from: i, to: end) ?? end
            if lineEnd - i > 2, message[i] == UInt8(ascii: "-"), message[i + 1] == UInt8(ascii: "-"),
               lineEnd + 8 < end, MIMEBytes.matchesLowercased(message, at: lineEnd + 1, end: end, "content-") {
                var hi = lineEnd
                while hi > i, MIMEBytes.isWhitespace(message[hi - 1]) { hi -= 1 }
                let line = Array(UnsafeRawBufferPointer(rebasing: message[i..<hi]))
                if line.count > 2, !line.contains(where: { $0 <= 32 }) { return line }
            }
            i = lineEnd + 1
        }
        return nil
    }
}
