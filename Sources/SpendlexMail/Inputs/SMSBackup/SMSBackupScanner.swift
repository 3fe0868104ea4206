import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads an SMS Backup & Restore (SyncTech) XML backup while streaming it:
///
///     <smses count="2">
///       <sms protocol="0" address="+15551234567" date="1714646161000" type="1" body="…" … />
///       <mms date="1714646200000" msg_box="1" address="+15551234567" …>
///         <parts><part ct="text/plain" text="…" /></parts>
///         <addrs><addr address="+15551234567" type="137" /></addrs>
///       </mms>
///     </smses>
///
/// A small scanner rather than `XMLParser`: libxml2 stops at the surrogate-pair references the
/// app writes for emoji (`&#55357;&#56832;`), and a scanner can report a truncated file after
/// the records before the cut. Elements are parsed one at a time from `InputByteStream`'s reused
/// buffers; an `<mms>` is held whole until `</mms>` (its parts may carry base64 images), so
/// memory is a few MiB plus twice the largest MMS.
///
/// Every `<sms>` and `<mms>` yields one item: a received message (`type="1"`, `msg_box="1"`, or
/// no type at all) is `.text`; sent, draft, outbox, failed and queued messages and MMS without
/// a `text/plain` part are `.skipped`; other elements inside `<smses>` are `.skipped` too. A file
/// that ends before `</smses>` ends with one `.malformed("truncated XML …")`.
final class SMSBackupScanner: InputItemSource {
    private let stream: InputByteStream
    private let file: String
    private let knownSize: Int?
    /// Absolute offset of the next byte to examine.
    private var position = 0
    private var rootName: [UInt8]?
    private var rootClosed = false
    private var declaredCount: Int?
    private var messagesSeen = 0
    private var finished = false
    private let attributes = SMSBackupAttributes()
    private let partAttributes = SMSBackupAttributes()
    /// The largest element held whole; a larger one is skipped and reported.
    private let recordLimit: Int

    init(stream: InputByteStream, file: String, totalBytes: Int?, recordLimit: Int) {
        self.stream = stream
        self.file = file
        self.knownSize = totalBytes
        self.recordLimit = recordLimit
    }

    var bytesRead: Int { finished ? stream.endOffset : position }
    var totalBytes: Int? { knownSize }

    func next() -> InputItem? {
        while !finished {
            guard let tag = findTagStart() else { return endOfInput() }
            switch examine(at: tag) {
            case .needMore:
                if stream.endOffset - tag > recordLimit { return skipOversized(at: tag) }
                // The fill drops the bytes before `tag`; searching again from an earlier
                // `position` read stale memory before the buffer (an element across a 1 MiB
                // boundary came out as "<s<sms>", 4 in a million-message backup).
                position = tag
                if !stream.fill(keepingFrom: tag) { return truncated(inside: tag) }
            case .skip(let next):
                position = next
            case .item(let item, let next):
                // Also when the whole element happened to fit in the buffer: the limit must not
                // depend on how the input was chunked.
                if next - tag > recordLimit { return skipOversized(at: tag) }
                position = next
                return item
            case .stop(let item):
                finished = true
                return item
            }
        }
        return nil
    }

    // MARK: - Scanning

    private enum Step {
        case needMore
        case skip(to: Int)
        case item(InputItem, next: Int)
        case stop(InputItem?)
    }

    /// Absolute offset of the next `<` at or after `position`, reading more as needed; nil at the
    /// end of the input.
    private func findTagStart() -> Int? {
        while true {
            let held = stream.endOffset - position
            if held > 0, let found = memchr(stream.base + (position - stream.bufferOffset), Int32(UInt8(ascii: "<")), held) {
                return stream.bufferOffset + (found.assumingMemoryBound(to: UInt8.self) - stream.base)
            }
            position = stream.endOffset
            if !stream.fill(keepingFrom: position) { return nil }
        }
    }

    private func examine(at tag: Int) -> Step {
        let start = UnsafePointer(stream.base + (tag - stream.bufferOffset))
        let length = stream.endOffset - tag
        guard length >= 2 else { return .needMore }
        switch start[1] {
        case UInt8(ascii: "?"):
            return skip(past: "?>", start, length, tag)
        case UInt8(ascii: "!"):
            if length < 4 { return .needMore }
            if start[2] == UInt8(ascii: "-"), start[3] == UInt8(ascii: "-") { return skip(past: "-->", start, length, tag) }
            if length < 9 { return .needMore }
            if UnsafeBufferPointer(start: start + 2, count: 7).elementsEqual("[CDATA[".utf8) {
                return skip(past: "]]>", start, length, tag)
            }
            return skip(past: ">", start, length, tag)
        case UInt8(ascii: "/"):
            guard let close = Self.find(">", start, from: 2, length) else { return .needMore }
            var nameEnd = 2
            while nameEnd < close, !InputShape.isBlank(start[nameEnd]) { nameEnd += 1 }
            if let rootName, UnsafeBufferPointer(start: start + 2, count: nameEnd - 2).elementsEqual(rootName) {
                rootClosed = true
                return .stop(nil)
            }
            return .skip(to: tag + close + 1)
        default:
            return startTag(at: tag, start, length)
        }
    }

    private func skip(past terminator: StaticString, _ start: UnsafePointer<UInt8>, _ length: Int, _ tag: Int) -> Step {
        guard let found = Self.find(terminator, start, from: 1, length) else { return .needMore }
        return .skip(to: tag + found + terminator.utf8CodeUnitCount)
    }

    private func startTag(at tag: Int, _ start: UnsafePointer<UInt8>, _ length: Int) -> Step {
        var nameEnd = 1
        while nameEnd < length, !InputShape.isBlank(start[nameEnd]), start[nameEnd] != UInt8(ascii: "/"),
              start[nameEnd] != UInt8(ascii: ">") { nameEnd += 1 }
        if nameEnd == length { return .needMore }
        let name = UnsafeBufferPointer(start: start + 1, count: nameEnd - 1)
        let parsed: (end: Int, selfClosing: Bool)
        switch attributes.parse(start, length, from: nameEnd) {
        case .needMore: return .needMore
        case .invalid(let why):
            return .item(.malformed(file: file, offset: tag, reason: "malformed XML in <\(String(decoding: name, as: UTF8.self))>: \(why)"),
                         next: tag + 1)
        case .complete(let end, let selfClosing): parsed = (end, selfClosing)
        }
        let afterTag = tag + parsed.end

        guard rootName != nil else {
            rootName = Array(name)
            guard name.elementsEqual("smses".utf8) else {
                return .stop(.malformed(file: file, offset: tag,
                                        reason: "not an SMS Backup & Restore file: root element <\(String(decoding: name, as: UTF8.self))>"))
            }
            declaredCount = attributes.integer("count", in: start).map(Int.init)
            if parsed.selfClosing { rootClosed = true; return .stop(nil) }
            return .skip(to: afterTag)
        }

        if name.elementsEqual("sms".utf8) {
            var next = afterTag
            if !parsed.selfClosing {
                guard let close = Self.find("</sms>", start, from: parsed.end, length) else { return .needMore }
                next = tag + close + 6
            }
            messagesSeen += 1
            return .item(sms(at: tag, start), next: next)
        }
        if name.elementsEqual("mms".utf8) {
            var end = parsed.end
            if !parsed.selfClosing {
                guard let close = Self.find("</mms>", start, from: parsed.end, length) else { return .needMore }
                end = close + 6
            }
            messagesSeen += 1
            return .item(mms(at: tag, start, body: parsed.end..<(parsed.selfClosing ? parsed.end : end - 6)), next: tag + end)
        }
        let elementName = String(decoding: name, as: UTF8.self)
        var next = afterTag
        if !parsed.selfClosing {
            let close = Array("</".utf8) + Array(name) + [UInt8(ascii: ">")]
            guard let found = close.withUnsafeBufferPointer({ Self.find($0, start, from: parsed.end, length) }) else {
                return .needMore
            }
            next = tag + found + close.count
        }
        return .item(.skipped(file: file, offset: tag, reason: "not a message: <\(elementName)> element"), next: next)
    }

    // MARK: - Records

    private func sms(at tag: Int, _ start: UnsafePointer<UInt8>) -> InputItem {
        let type = attributes.integer("type", in: start)
        if let type, type != 1 {
            return .skipped(file: file, offset: tag, reason: "\(Self.boxName(type)) SMS (type \(type)), not a received message")
        }
        guard let body = attributes.text("body", in: start) else {
            return .malformed(file: file, offset: tag, reason: "<sms> without a body attribute")
        }
        let address = attributes.text("address", in: start)
        let date = attributes.integer("date", in: start)
        return .text(TextRecord(id: date.map { "sms:\(address ?? ""):\($0)" }, text: body, sender: address,
                                receivedAt: date.map(Self.date(fromEpoch:)), channel: "sms", file: file, offset: tag))
    }

    private func mms(at tag: Int, _ start: UnsafePointer<UInt8>, body: Range<Int>) -> InputItem {
        let box = attributes.integer("msg_box", in: start)
        if let box, box != 1 {
            return .skipped(file: file, offset: tag, reason: "\(Self.boxName(box)) MMS (msg_box \(box)), not a received message")
        }
        var texts: [String] = []
        var from: String?
        var i = body.lowerBound
        while i < body.upperBound, let open = Self.find("<", start, from: i, body.upperBound) {
            var nameEnd = open + 1
            while nameEnd < body.upperBound, !InputShape.isBlank(start[nameEnd]), start[nameEnd] != UInt8(ascii: "/"),
                  start[nameEnd] != UInt8(ascii: ">") { nameEnd += 1 }
            let name = UnsafeBufferPointer(start: start + open + 1, count: nameEnd - open - 1)
            guard name.elementsEqual("part".utf8) || name.elementsEqual("addr".utf8),
                  case .complete(let end, _) = partAttributes.parse(start + open, body.upperBound - open, from: nameEnd - open) else {
                i = open + 1
                continue
            }
            let element = start + open
            if name.elementsEqual("part".utf8) {
                if let type = partAttributes.text("ct", in: element), type.lowercased().hasPrefix("text/plain") {
                    if let text = partAttributes.text("text", in: element), text != "null" {
                        texts.append(text)
                    } else if let data = partAttributes.text("data", in: element),
                              let decoded = Data(base64Encoded: data, options: .ignoreUnknownCharacters) {
                        texts.append(String(decoding: decoded, as: UTF8.self))
                    }
                }
            } else if from == nil, partAttributes.integer("type", in: element) == 137 {
                from = partAttributes.text("address", in: element)
            }
            i = open + end
        }
        guard !texts.isEmpty else { return .skipped(file: file, offset: tag, reason: "MMS without a text part") }
        let sender = from ?? attributes.text("address", in: start)
        let date = attributes.integer("date", in: start)
        return .text(TextRecord(id: date.map { "mms:\(sender ?? ""):\($0)" }, text: texts.joined(separator: "\n"),
                                sender: sender, receivedAt: date.map(Self.date(fromEpoch:)), channel: "sms",
                                file: file, offset: tag))
    }

    /// Milliseconds since 1970 (what the app writes); values too small to be milliseconds after
    /// 1973 are taken as seconds, as Android's own MMS table stores them.
    private static func date(fromEpoch value: Int64) -> Date {
        value < 100_000_000_000 ? Date(timeIntervalSince1970: Double(value))
            : Date(timeIntervalSince1970: Double(value) / 1000)
    }

    /// Android's message box numbers (Telephony.TextBasedSmsColumns.TYPE_*, Mms.MESSAGE_BOX_*).
    private static func boxName(_ type: Int64) -> String {
        switch type {
        case 2: "sent"
        case 3: "draft"
        case 4: "outbox"
        case 5: "failed"
        case 6: "queued"
        default: "non-inbox"
        }
    }

    // MARK: - End of input

    private func endOfInput() -> InputItem? {
        finished = true
        if let error = stream.readError {
            return .malformed(file: file, offset: stream.endOffset, reason: "read error: \(error)")
        }
        if rootName == nil {
            return .malformed(file: file, offset: 0, reason: "no <smses> element: not an SMS Backup & Restore file")
        }
        if rootClosed { return nil }
        return .malformed(file: file, offset: stream.endOffset,
                          reason: "truncated XML: the file ends before </smses>\(progress())")
    }

    /// An element larger than `recordLimit` (an unterminated attribute, a huge attachment): it is
    /// reported, and reading resumes after its end tag (`</mms>`) or, for other elements, at the
    /// next `<`.
    private func skipOversized(at tag: Int) -> InputItem {
        let name = elementName(at: tag)
        if name == "sms" || name == "mms" { messagesSeen += 1 }
        position = tag + 1
        if name == "mms" {
            while true {
                let start = UnsafePointer(stream.base + (position - stream.bufferOffset))
                if let close = Self.find("</mms>", start, from: 0, stream.endOffset - position) {
                    position += close + 6
                    break
                }
                position = max(position, stream.endOffset - 5)
                if !stream.fill(keepingFrom: position) { break }
            }
        }
        return .malformed(file: file, offset: tag, reason: "<\(name)> element larger than \(InputByteStream.describe(size: recordLimit)): skipped")
    }

    /// The element name after `<` at `tag` (at most 40 bytes).
    private func elementName(at tag: Int) -> String {
        var nameEnd = tag + 1
        while nameEnd < stream.endOffset, nameEnd - tag < 40, !InputShape.isBlank(stream[nameEnd]),
              stream[nameEnd] != UInt8(ascii: ">"), stream[nameEnd] != UInt8(ascii: "/") { nameEnd += 1 }
        return String(decoding: stream.bytes(from: tag + 1, to: nameEnd), as: UTF8.self)
    }

    private func truncated(inside tag: Int) -> InputItem {
        finished = true
        let name = elementName(at: tag)
        let reason = stream.readError.map { "read error: \($0)" } ?? "truncated XML: the file ends inside <\(name)>"
        return .malformed(file: file, offset: tag, reason: reason + progress())
    }

    private func progress() -> String {
        let declared = declaredCount.map { " of \($0) declared" } ?? ""
        return " (\(messagesSeen)\(declared) messages read)"
    }

    // MARK: - Byte search

    static func find(_ needle: StaticString, _ start: UnsafePointer<UInt8>, from: Int, _ length: Int) -> Int? {
        find(UnsafeBufferPointer(start: needle.utf8Start, count: needle.utf8CodeUnitCount), start, from: from, length)
    }

    /// Offset of the first `needle` in `start[from..<length]`: memchr for its first byte, then a
    /// comparison.
    static func find(_ needle: UnsafeBufferPointer<UInt8>, _ start: UnsafePointer<UInt8>, from: Int, _ length: Int) -> Int? {
        guard let first = needle.first else { return from }
        var i = from
        while length - i >= needle.count {
            guard let hit = memchr(start + i, Int32(first), length - i - needle.count + 1) else { return nil }
            let at = UnsafePointer(hit.assumingMemoryBound(to: UInt8.self)) - start
            if memcmp(start + at, needle.baseAddress!, needle.count) == 0 { return at }
            i = at + 1
        }
        return nil
    }
}

/// The attributes of one start tag, as offsets into the element's bytes, kept in storage reused
/// from tag to tag (no allocation per element).
final class SMSBackupAttributes {
    enum Outcome {
        case complete(end: Int, selfClosing: Bool)
        case needMore
        case invalid(String)
    }

    /// Name start, name end, value start, value end of each attribute.
    private var spans: UnsafeMutablePointer<(Int, Int, Int, Int)>
    private var capacity = 32
    private var count = 0

    init() { spans = .allocate(capacity: capacity) }
    deinit { spans.deallocate() }

    private func append(_ span: (Int, Int, Int, Int)) {
        if count == capacity {
            let larger = UnsafeMutablePointer<(Int, Int, Int, Int)>.allocate(capacity: capacity * 2)
            larger.moveInitialize(from: spans, count: count)
            spans.deallocate()
            spans = larger
            capacity *= 2
        }
        (spans + count).initialize(to: span)
        count += 1
    }

    /// Parses `name="value"` pairs from `from` up to `>` or `/>` in `start[0..<length]`. `end` is
    /// the offset just past the tag.
    func parse(_ start: UnsafePointer<UInt8>, _ length: Int, from: Int) -> Outcome {
        count = 0
        var i = from
        while true {
            while i < length, InputShape.isBlank(start[i]) { i += 1 }
            guard i < length else { return .needMore }
            switch start[i] {
            case UInt8(ascii: ">"):
                return .complete(end: i + 1, selfClosing: false)
            case UInt8(ascii: "/"):
                guard i + 1 < length else { return .needMore }
                guard start[i + 1] == UInt8(ascii: ">") else { return .invalid("'/' not followed by '>'") }
                return .complete(end: i + 2, selfClosing: true)
            case UInt8(ascii: "<"):
                return .invalid("'<' inside a tag")
            default:
                break
            }
            let nameStart = i
            while i < length, start[i] != UInt8(ascii: "="), !InputShape.isBlank(start[i]), start[i] != UInt8(ascii: ">"),
                  start[i] != UInt8(ascii: "/"), start[i] != UInt8(ascii: "<") { i += 1 }
            let nameEnd = i
            while i < length, InputShape.isBlank(start[i]) { i += 1 }
            guard i < length else { return .needMore }
            guard start[i] == UInt8(ascii: "=") else {
                return .invalid("attribute \(String(decoding: UnsafeBufferPointer(start: start + nameStart, count: nameEnd - nameStart), as: UTF8.self)) has no value")
            }
            i += 1
            while i < length, InputShape.isBlank(start[i]) { i += 1 }
            guard i < length else { return .needMore }
            let quote = start[i]
            guard quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else { return .invalid("unquoted attribute value") }
            let valueStart = i + 1
            guard let close = memchr(start + valueStart, Int32(quote), length - valueStart) else { return .needMore }
            let valueEnd = UnsafePointer(close.assumingMemoryBound(to: UInt8.self)) - start
            append((nameStart, nameEnd, valueStart, valueEnd))
            i = valueEnd + 1
        }
    }

    /// The raw value range of attribute `name`.
    func range(_ name: StaticString, in start: UnsafePointer<UInt8>) -> Range<Int>? {
        let wanted = name.utf8Start
        let wantedCount = name.utf8CodeUnitCount
        for index in 0..<count {
            let span = spans[index]
            if span.1 - span.0 == wantedCount, memcmp(start + span.0, wanted, wantedCount) == 0 { return span.2..<span.3 }
        }
        return nil
    }

    /// The decoded value of attribute `name`.
    func text(_ name: StaticString, in start: UnsafePointer<UInt8>) -> String? {
        range(name, in: start).map { XMLAttributeText.decode(start + $0.lowerBound, $0.count) }
    }

    /// The value of attribute `name` as a decimal integer (leading `-` allowed), or nil.
    func integer(_ name: StaticString, in start: UnsafePointer<UInt8>) -> Int64? {
        guard let range = range(name, in: start), !range.isEmpty, range.count <= 19 else { return nil }
        var i = range.lowerBound
        let negative = start[i] == UInt8(ascii: "-")
        if negative { i += 1 }
        guard i < range.upperBound else { return nil }
        var value: Int64 = 0
        while i < range.upperBound {
            guard InputShape.isDigit(start[i]) else { return nil }
            value = value * 10 + Int64(start[i] - UInt8(ascii: "0"))
            i += 1
        }
        return negative ? -value : value
    }
}
