#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// HTML to readable text, in one pass over the bytes, for parsing alerts rather than for
/// display: no DOM, no CSS, no layout.
///
/// - Block elements (p, div, br, tr, li, h1–h6, table, blockquote, …) become line breaks,
///   paragraph-like ones (p, h1–h6, table, blockquote, hr) a blank line.
/// - Table cells on one line are separated by " | ". A table whose first row names its columns
///   and whose next rows hold values is written as labelled lines, one per cell (`HTMLColumnTable`).
/// - Named (the whole HTML5 table, so all of HTML 4), decimal and hex character references
///   are decoded; no-break spaces become plain spaces, so `Rs.&nbsp;500` reads `Rs. 500`.
/// - Script, style, title (so all of the head's text), template and comments are dropped.
/// - Whitespace runs collapse to one space (except inside `pre`); at most one blank line
///   in a row; lines and the whole text are trimmed.
public enum HTMLText {
    /// HTML to readable text (see the type's description).
    public static func text(fromHTML html: String) -> String {
        var html = html
        return html.withUTF8 { text(fromHTML: UnsafeRawBufferPointer($0)) }
    }

    /// A message's text as the rules should read it: an HTML document (a message whose text
    /// opens with an HTML tag, as an e-mail body pasted into JSON Lines or posted to the service
    /// does) as readable text, table rows as lines ("Amount: | SGD 100.50"); any other text as it is.
    public static func readable(_ text: String) -> String {
        looksLikeHTML(text) ? self.text(fromHTML: text) : text
    }

    /// Whether the text opens (after white space) with `<!DOCTYPE html>`, a comment, or the tag of
    /// an element an e-mail body starts with (html, head, body, table, div, p, center, span, br).
    static func looksLikeHTML(_ text: String) -> Bool {
        var bytes = text.utf8.drop { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }.prefix(16).makeIterator()
        guard bytes.next() == UInt8(ascii: "<") else { return false }
        var name: [UInt8] = []
        while let byte = bytes.next() {
            if byte == UInt8(ascii: "!") && name.isEmpty { return true }  // <!DOCTYPE html>, <!-- -->
            guard (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z") else { break }
            name.append(byte | 0x20)
        }
        return ["html", "head", "body", "table", "div", "p", "center", "span", "br"].contains(String(decoding: name, as: UTF8.self))
    }

    /// HTML as UTF-8 bytes to readable text (see the type's description).
    public static func text(fromHTML bytes: [UInt8]) -> String {
        bytes.withUnsafeBytes { text(fromHTML: $0) }
    }

    /// HTML as UTF-8 bytes to readable text (see the type's description).
    public static func text(fromHTML bytes: UnsafeRawBufferPointer) -> String {
        converted(fromHTML: bytes).text
    }

    /// HTML as UTF-8 bytes to readable text, and whether a character reference in it wrote a
    /// scalar from U+0300 on ("&#769;", a combining acute): then the text may need composing
    /// (NFC) though the markup's own bytes hold nothing from U+0300 on.
    static func converted(fromHTML bytes: UnsafeRawBufferPointer) -> (text: String, referencesFromU0300: Bool) {
        var converter = HTMLTextConverter(input: bytes)
        defer { converter.output.deallocate() }
        converter.run()
        let text = converter.output.string()
        // A column table needs a header row and a row of values, three cells or more each.
        return (converter.cellSeparators >= 4 ? HTMLColumnTable.labelled(text) : text, converter.referencesFromU0300)
    }
}

/// A growable byte buffer without `Array`'s per-append uniqueness and bounds checks.
struct HTMLOutput {
    private(set) var base: UnsafeMutablePointer<UInt8>
    var count = 0
    private(set) var capacity: Int

    init(capacity: Int) {
        self.capacity = max(capacity, 64)
        base = .allocate(capacity: self.capacity)
    }

    func deallocate() { base.deallocate() }

    var isEmpty: Bool { count == 0 }

    /// Makes room for `extra` more bytes.
    @inline(__always)
    mutating func reserve(_ extra: Int) {
        if count + extra > capacity { grow(count + extra) }
    }

    private mutating func grow(_ needed: Int) {
        let newCapacity = max(capacity * 2, needed)
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBase.update(from: base, count: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }

    @inline(__always)
    mutating func append(_ byte: UInt8) {
        reserve(1)
        base[count] = byte
        count += 1
    }

    @inline(__always)
    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        guard let source = bytes.baseAddress else { return }
        reserve(bytes.count)
        (base + count).update(from: source.assumingMemoryBound(to: UInt8.self), count: bytes.count)
        count += bytes.count
    }

    var trailingNewlines: Int {
        var k = count
        while k > 0, base[k - 1] == MIMEBytes.lf { k -= 1 }
        return count - k
    }

    /// Drops leading and trailing whitespace.
    mutating func trimWhitespace() {
        while count > 0, MIMEBytes.isWhitespace(base[count - 1]) { count -= 1 }
        var start = 0
        while start < count, MIMEBytes.isWhitespace(base[start]) { start += 1 }
        if start > 0 {
            memmove(base, base + start, count - start)
            count -= start
        }
    }

    func string() -> String {
        String(decoding: UnsafeBufferPointer(start: base, count: count), as: UTF8.self)
    }
}

/// What a tag does to the text around it.
enum HTMLTagRole: UInt8 {
    /// Starts and ends a line.
    case block
    /// Starts and ends a paragraph: a blank line around it.
    case paragraph
    /// `br`: one line break, even when repeated.
    case lineBreak
    /// `td`, `th`: a cell separator when the row already has text.
    case cell
    /// `pre`, `textarea`, `listing`: whitespace kept.
    case preformatted
    /// `script`, `style`, `title`, …: the content is dropped.
    case dropContent
}

/// The state of one conversion. Output is produced lazily: whitespace and line breaks are
/// only written when text follows them, which gives collapsing and trimming for free.
struct HTMLTextConverter {
    let input: UnsafeRawBufferPointer
    var output: HTMLOutput
    /// Whitespace was seen since the last text.
    private var pendingSpace = false
    /// Line breaks requested since the last text (at most 2: one blank line).
    private var pendingBreaks = 0
    /// A cell started after text on the same line.
    private var pendingCell = false
    /// Whether the current output line has text.
    private var lineHasText = false
    private var preDepth = 0
    /// Whether a character reference wrote a scalar from U+0300 on.
    private(set) var referencesFromU0300 = false
    /// How many " | " between cells were written.
    private(set) var cellSeparators = 0

    init(input: UnsafeRawBufferPointer) {
        self.input = input
        // Text is rarely longer than its markup: one allocation is usually all it takes.
        output = HTMLOutput(capacity: input.count + 64)
    }

    /// Per byte: bits 3-4 the class (0 text, 1 whitespace, 2 `<`, 3 `&`); bit 0: ends a
    /// text run (`<`, `&`, whitespace but the space); bit 1: the space; bit 2: not text.
    /// A space ends a run only when the next byte is not text.
    private static let kinds: [UInt8] = {
        var table = [UInt8](repeating: 0, count: 256)
        for b in 9...13 { table[b] = 1 << 3 | 0b101 }
        table[32] = 1 << 3 | 0b110
        table[Int(UInt8(ascii: "<"))] = 2 << 3 | 0b101
        table[Int(UInt8(ascii: "&"))] = 3 << 3 | 0b101
        return table
    }()

    mutating func run() {
        let n = input.count
        var i = 0
        Self.kinds.withUnsafeBufferPointer { kinds in
            while i < n {
                let b = input[i]
                switch kinds[Int(b)] >> 3 {
                case 0:
                    i = textRun(from: i, kinds: kinds)
                case 1:
                    if preDepth > 0 {
                        preformattedWhitespace(b)
                        i += 1
                    } else {
                        // A whole run of whitespace (indentation between tags) is one space.
                        pendingSpace = true
                        i += 1
                        while i < n, kinds[Int(input[i])] >> 3 == 1 { i += 1 }
                    }
                case 2:
                    i = tag(at: i)
                default:
                    i = entity(at: i)
                }
            }
        }
        // Nothing pending is ever written, so only `pre` whitespace can need trimming.
        output.trimWhitespace()
    }

    /// Copies the run of text starting at `start`, single spaces between words included;
    /// returns where it ends. The scan is branch-free (the table and the next byte), so
    /// that the spaces between words cost no mispredicted branch, and it only reads: the
    /// run is copied afterwards in one `memcpy`. This is most of the converter's time.
    @inline(__always)
    private mutating func textRun(from start: Int, kinds: UnsafeBufferPointer<UInt8>) -> Int {
        let n = input.count
        var j = Self.skipPlainText(input, from: start)
        let last = n &- 1
        while j < last {
            let k = kinds[Int(input[j])]
            let kNext = kinds[Int(input[j &+ 1])]
            if (k | (k >> 1) & (kNext >> 2)) & 1 != 0 { break }
            j &+= 1
        }
        if j == last, kinds[Int(input[j])] == 0 { j &+= 1 }
        flushPending()
        output.append(UnsafeRawBufferPointer(rebasing: input[start..<j]))
        lineHasText = true
        return j
    }

    /// Where eight-byte words of plain text starting at `start` end: a word is skipped when
    /// none of its bytes is `<`, `&` or a control character, and no space in it is followed by
    /// a space, control character, `<` or `&` (a space that ends the run). The byte loop of
    /// `textRun` takes over from the word that may hold the end; words are only a shortcut.
    @inline(__always)
    private static func skipPlainText(_ input: UnsafeRawBufferPointer, from start: Int) -> Int {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highBits: UInt64 = 0x8080_8080_8080_8080
        @inline(__always) func zeroBytes(_ x: UInt64) -> UInt64 { (x &- ones) & ~x & highBits }
        @inline(__always) func bytesBelow(_ x: UInt64, _ n: UInt64) -> UInt64 { (x &- ones &* n) & ~x & highBits }
        var j = start
        // Each word is read with the word one byte further, for the byte after each space.
        while j + 9 <= input.count {
            let word = input.loadUnaligned(fromByteOffset: j, as: UInt64.self)
            let next = input.loadUnaligned(fromByteOffset: j + 1, as: UInt64.self)
            let ends = bytesBelow(word, 0x20) | zeroBytes(word ^ (ones &* 0x3C)) | zeroBytes(word ^ (ones &* 0x26))
            let spaces = zeroBytes(word ^ (ones &* 0x20))
            let notTextNext = bytesBelow(next, 0x21) | zeroBytes(next ^ (ones &* 0x3C)) | zeroBytes(next ^ (ones &* 0x26))
            if ends | (spaces & notTextNext) != 0 { break }
            j += 8
        }
        return j
    }

    // MARK: Writing

    @inline(__always)
    private mutating func flushPending() {
        if pendingBreaks > 0 {
            if !output.isEmpty {
                var breaks = pendingBreaks
                // Never more than one blank line, also counting breaks already written in `pre`.
                var k = output.count - 1
                while breaks > 0, k >= 0, output.base[k] == MIMEBytes.lf {
                    breaks -= 1
                    k -= 1
                }
                for _ in 0..<breaks { output.append(MIMEBytes.lf) }
            }
            pendingBreaks = 0
            pendingSpace = false
            pendingCell = false
            lineHasText = false
        } else if pendingCell {
            if lineHasText {
                output.append(MIMEBytes.space)
                output.append(UInt8(ascii: "|"))
                output.append(MIMEBytes.space)
                cellSeparators += 1
            }
            pendingCell = false
            pendingSpace = false
        } else if pendingSpace {
            if lineHasText { output.append(MIMEBytes.space) }
            pendingSpace = false
        }
    }

    @inline(__always)
    private mutating func emitText(_ bytes: UnsafeRawBufferPointer) {
        flushPending()
        output.append(bytes)
        lineHasText = true
    }

    private mutating func preformattedWhitespace(_ b: UInt8) {
        if b == MIMEBytes.lf {
            pendingBreaks = 0
            pendingCell = false
            pendingSpace = false
            if output.trailingNewlines < 2 && !output.isEmpty { output.append(MIMEBytes.lf) }
            lineHasText = false
        } else if b != MIMEBytes.cr {
            flushPending()
            output.append(b == MIMEBytes.tab ? MIMEBytes.tab : MIMEBytes.space)
        }
    }

    private mutating func requestBreaks(_ count: Int) {
        pendingBreaks = max(pendingBreaks, count)
        pendingCell = false
    }

    // MARK: Tags

    /// Handles the markup starting at `start` (a `<`); returns the index after it.
    private mutating func tag(at start: Int) -> Int {
        let n = input.count
        guard start + 1 < n else {
            emitText(UnsafeRawBufferPointer(rebasing: input[start..<n]))
            return n
        }
        let next = input[start + 1]
        if next == UInt8(ascii: "!") {
            if start + 3 < n, input[start + 2] == UInt8(ascii: "-"), input[start + 3] == UInt8(ascii: "-") {
                return skip(past: "-->", from: start + 4)
            }
            return skip(past: ">", from: start + 2)
        }
        if next == UInt8(ascii: "?") { return skip(past: ">", from: start + 2) }
        var i = start + 1
        let closing = next == UInt8(ascii: "/")
        if closing { i += 1 }
        guard i < n, MIMEBytes.lower(input[i]) &- 0x61 < 26 else {
            // Not a tag: a literal '<' as in "a < b".
            emitText(UnsafeRawBufferPointer(rebasing: input[start..<(start + 1)]))
            return start + 1
        }
        // The name, packed into an integer key: up to 7 lower-cased bytes, the length on top.
        var key: UInt64 = 0
        var length = 0
        while i < n {
            let c = input[i]
            if MIMEBytes.isWhitespace(c) || c == UInt8(ascii: "/") || c == UInt8(ascii: ">") { break }
            if length < 7 { key = key << 8 | UInt64(MIMEBytes.lower(c)) }
            length += 1
            i += 1
        }
        key |= UInt64(min(length, 255)) << 56
        let end = endOfTag(from: i)
        guard let role = HTMLTagNames.role(key) else { return end }
        switch role {
        case .block: requestBreaks(1)
        case .paragraph: requestBreaks(2)
        case .lineBreak:
            if !output.isEmpty {
                pendingBreaks = min(pendingBreaks + 1, 2)
                pendingCell = false
            }
        case .cell:
            if !closing, pendingBreaks == 0 { pendingCell = true }
        case .preformatted:
            requestBreaks(1)
            preDepth = max(0, preDepth + (closing ? -1 : 1))
        case .dropContent:
            if !closing, !selfClosing(before: end) {
                return skipElement(from: end, nameStart: start + 1, nameLength: length)
            }
        }
        return end
    }

    /// Index after the `>` closing a tag whose attributes start at `i`; quoted
    /// attribute values may contain `>`.
    private func endOfTag(from start: Int) -> Int {
        let n = input.count
        var i = start
        var afterEquals = false
        while i < n {
            let c = input[i]
            if c == UInt8(ascii: ">") { return i + 1 }
            if (c == UInt8(ascii: "\"") || c == UInt8(ascii: "'")) && afterEquals {
                guard let close = MIMEBytes.find(c, in: input, from: i + 1, to: n) else { return n }
                i = close + 1
                afterEquals = false
                continue
            }
            if c == UInt8(ascii: "=") {
                afterEquals = true
            } else if !MIMEBytes.isWhitespace(c) {
                afterEquals = false
            }
            i += 1
        }
        return n
    }

    private func selfClosing(before end: Int) -> Bool {
        end >= 2 && input[end - 1] == UInt8(ascii: ">") && input[end - 2] == UInt8(ascii: "/")
    }

    /// Index after the first `terminator` at or after `from`, or the end.
    private func skip(past terminator: StaticString, from: Int) -> Int {
        let needle = UnsafeRawBufferPointer(start: terminator.utf8Start, count: terminator.utf8CodeUnitCount)
        guard let hit = MIMEBytes.find(needle, in: input, from: from, to: input.count) else { return input.count }
        return hit + needle.count
    }

    /// Skips raw content up to the matching `</name`, whose tag is consumed too.
    private func skipElement(from start: Int, nameStart: Int, nameLength: Int) -> Int {
        let n = input.count
        var i = start
        while let lt = MIMEBytes.find(UInt8(ascii: "<"), in: input, from: i, to: n) {
            if lt + 1 < n, input[lt + 1] == UInt8(ascii: "/"), lt + 2 + nameLength <= n {
                var same = true
                for k in 0..<nameLength
                where MIMEBytes.lower(input[lt + 2 + k]) != MIMEBytes.lower(input[nameStart + k]) {
                    same = false
                    break
                }
                let after = lt + 2 + nameLength
                if same, after == n || !isNameByte(input[after]) { return endOfTag(from: after) }
            }
            i = lt + 1
        }
        return n
    }

    @inline(__always)
    private func isNameByte(_ c: UInt8) -> Bool {
        MIMEBytes.lower(c) &- 0x61 < 26 || c &- 0x30 < 10 || c == UInt8(ascii: "-")
    }

    // MARK: Character references

    /// Handles the `&` at `start`; returns the index after the reference (or after the `&`).
    private mutating func entity(at start: Int) -> Int {
        let n = input.count
        var i = start + 1
        if i < n, input[i] == UInt8(ascii: "#") {
            i += 1
            var hex = false
            if i < n, input[i] | 0x20 == UInt8(ascii: "x") {
                hex = true
                i += 1
            }
            var value: UInt32 = 0
            var digits = 0
            while i < n {
                let d = MIMEBytes.hexValue(input[i])
                guard d != 0xFF, hex || d < 10 else { break }
                if value < 0x11_0000 { value = value * (hex ? 16 : 10) + UInt32(d) }
                digits += 1
                i += 1
            }
            guard digits > 0 else { return literalAmpersand(start) }
            if i < n, input[i] == UInt8(ascii: ";") { i += 1 }
            emitScalar(Self.numericScalar(value))
            return i
        }
        // A name: letters and digits.
        var j = i
        while j < n, j - i < HTMLEntities.longestName, isAlphanumeric(input[j]) { j += 1 }
        guard j > i else { return literalAmpersand(start) }
        let name = UnsafeRawBufferPointer(rebasing: input[i..<j])
        if j < n, input[j] == UInt8(ascii: ";"), let bytes = HTMLEntities.table[MIMEBytes.string(name)] {
            emitDecoded(bytes)
            return j + 1
        }
        // Legacy references without `;`: the longest known prefix (`&copy2024` is "©2024").
        var k = j
        while k - i >= 2 {
            let prefix = MIMEBytes.string(UnsafeRawBufferPointer(rebasing: input[i..<k]))
            if HTMLEntities.withoutSemicolon.contains(prefix), let bytes = HTMLEntities.table[prefix] {
                emitDecoded(bytes)
                return k
            }
            k -= 1
        }
        return literalAmpersand(start)
    }

    @inline(__always)
    private func isAlphanumeric(_ c: UInt8) -> Bool {
        MIMEBytes.lower(c) &- 0x61 < 26 || c &- 0x30 < 10
    }

    private mutating func literalAmpersand(_ start: Int) -> Int {
        emitText(UnsafeRawBufferPointer(rebasing: input[start..<(start + 1)]))
        return start + 1
    }

    /// What a numeric reference means per the HTML spec: C1 range as windows-1252, invalid as U+FFFD.
    static func numericScalar(_ value: UInt32) -> UInt32 {
        switch value {
        case 0, 0xD800...0xDFFF, 0x11_0000...: return 0xFFFD
        case 0x80...0x9F: return MIMECharset.cp1252[Int(value)]
        default: return value
        }
    }

    private mutating func emitScalar(_ scalar: UInt32) {
        var bytes: [UInt8] = []
        MIMEBytes.appendUTF8(scalar, to: &bytes)
        emitDecoded(bytes)
    }

    /// Decoded reference text: whitespace and no-break spaces collapse like spaces.
    private mutating func emitDecoded(_ bytes: [UInt8]) {
        // A lead byte from 0xCC on starts a scalar from U+0300 on (continuation bytes are below 0xC0).
        if !referencesFromU0300, bytes.contains(where: { $0 >= 0xCC }) { referencesFromU0300 = true }
        if bytes == [0xC2, 0xA0] || (bytes.count == 1 && MIMEBytes.isWhitespace(bytes[0])) {
            if preDepth > 0 {
                preformattedWhitespace(bytes.count == 1 ? bytes[0] : MIMEBytes.space)
            } else {
                pendingSpace = true
            }
            return
        }
        bytes.withUnsafeBytes { emitText($0) }
    }
}

/// Tag names with a role, keyed as ``HTMLTextConverter`` packs them: up to seven
/// lower-cased bytes, the name's length in the top byte. A switch on constants compiles
/// to a search without hashing. Generated; the names are in the comments.
enum HTMLTagNames {
    @inline(__always)
    static func role(_ key: UInt64) -> HTMLTagRole? {
        switch key {
        case 0x0300000000646976: .block  // div
        case 0x0200000000007472: .block  // tr
        case 0x0200000000006C69: .block  // li
        case 0x0200000000006474: .block  // dt
        case 0x0200000000006464: .block  // dd
        case 0x020000000000756C: .block  // ul
        case 0x0200000000006F6C: .block  // ol
        case 0x020000000000646C: .block  // dl
        case 0x0761646472657373: .block  // address
        case 0x0761727469636C65: .block  // article
        case 0x0500006173696465: .block  // aside
        case 0x060063656E746572: .block  // center
        case 0x0764657461696C73: .block  // details
        case 0x06006469616C6F67: .block  // dialog
        case 0x0300000000646972: .block  // dir
        case 0x0A66696763617074: .block  // figcaption
        case 0x0600666967757265: .block  // figure
        case 0x0600666F6F746572: .block  // footer
        case 0x04000000666F726D: .block  // form
        case 0x0600686561646572: .block  // header
        case 0x06006867726F7570: .block  // hgroup
        case 0x040000006D61696E: .block  // main
        case 0x040000006D656E75: .block  // menu
        case 0x03000000006E6176: .block  // nav
        case 0x0773656374696F6E: .block  // section
        case 0x0773756D6D617279: .block  // summary
        case 0x086669656C647365: .block  // fieldset
        case 0x06006C6567656E64: .block  // legend
        case 0x0763617074696F6E: .block  // caption
        case 0x05000074626F6479: .block  // tbody
        case 0x0500007468656164: .block  // thead
        case 0x05000074666F6F74: .block  // tfoot
        case 0x086E6F7363726970: .block  // noscript
        case 0x0100000000000070: .paragraph  // p
        case 0x0200000000006831: .paragraph  // h1
        case 0x0200000000006832: .paragraph  // h2
        case 0x0200000000006833: .paragraph  // h3
        case 0x0200000000006834: .paragraph  // h4
        case 0x0200000000006835: .paragraph  // h5
        case 0x0200000000006836: .paragraph  // h6
        case 0x0500007461626C65: .paragraph  // table
        case 0x0A626C6F636B7175: .paragraph  // blockquote
        case 0x0200000000006872: .paragraph  // hr
        case 0x0200000000006272: .lineBreak  // br
        case 0x0200000000007464: .cell  // td
        case 0x0200000000007468: .cell  // th
        case 0x0300000000707265: .preformatted  // pre
        case 0x0874657874617265: .preformatted  // textarea
        case 0x076C697374696E67: .preformatted  // listing
        case 0x09706C61696E7465: .preformatted  // plaintext
        case 0x0300000000786D70: .preformatted  // xmp
        case 0x0600736372697074: .dropContent  // script
        case 0x0500007374796C65: .dropContent  // style
        case 0x0500007469746C65: .dropContent  // title
        case 0x0874656D706C6174: .dropContent  // template
        case 0x0600696672616D65: .dropContent  // iframe
        case 0x06006F626A656374: .dropContent  // object
        case 0x0300000000737667: .dropContent  // svg
        case 0x040000006D617468: .dropContent  // math
        case 0x060073656C656374: .dropContent  // select
        default: nil
        }
    }
}
