#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Splits an mbox (mboxo, mboxrd, Gmail Takeout; LF or CRLF) into messages while streaming it.
///
/// Separator rule. A line is a message separator when it starts with `From `, has the shape of
/// a From_ line (`InputShape.isFromLine`: a sender then a date with a time and a year), and
/// either follows an empty line or is followed by a header line (`Name: value`). The first rule
/// is the classic one; the second accepts Gmail Takeout files, which do not always leave an
/// empty line before `From `. Requiring the shape in both cases keeps unescaped body lines such
/// as `From the desk of …` (written by careless mboxo writers) inside their message. The first
/// `From ` line of the file, after an optional BOM and blank lines, always starts a message.
///
/// Each message is the bytes after its From_ line up to the next separator, minus the one empty
/// line the writer put before that separator, with one `>` removed from lines matching
/// `^>+From ` (mboxrd unquoting, also applied to mboxo; see `RawEmail`).
///
/// Reading: 1 MiB chunks into reused buffers, read ahead on a second core (`InputByteStream`);
/// the scan looks only at lines starting with `F` or `>`, found 64 bytes at a time with SIMD
/// compares (1.5–2.8 GB/s end to end on the 282 MB benchmark mbox). A message is held whole until
/// it is copied out, so memory is 4 MiB plus about twice the largest message; a message larger
/// than the record limit (256 MiB by default) is dropped while scanning and reported as
/// `.malformed`, so a file without separators cannot exhaust memory.
final class MboxMessageSplitter: InputItemSource {
    private enum Phase { case start, messages, done }

    private let stream: InputByteStream
    private let file: String
    private let knownSize: Int?
    private var phase = Phase.start
    /// Absolute offset of the current record's From_ line.
    private var recordStart = 0
    /// Absolute offsets of the `>` bytes to drop from the current message.
    private var unquotes: [Int] = []
    private var reportedReadError = false
    /// The largest message kept; a larger one is dropped while scanning and reported.
    private let recordLimit: Int
    /// Set by `scan` when the current message outgrew `recordLimit`.
    private var oversized = false
    /// Routes each email from its header block, read in place; a message it declines is
    /// skipped over without being copied (see `InputReader.router`).
    var router: ((EmailHeaders) -> EmailRoute)?
    /// The longest header block read in place for routing; a message with a longer one is
    /// copied whole and routed afterwards, as without a router.
    static let routedHeaderLimit = 256 << 10

    /// With a range: only the messages whose From_ line starts in it (see `init(stream:owning:)`).
    private var owned: Range<Int>?

    init(stream: InputByteStream, file: String, totalBytes: Int?, recordLimit: Int) {
        self.stream = stream
        self.file = file
        self.knownSize = totalBytes
        self.recordLimit = recordLimit
    }

    /// Splits the messages whose From_ line starts in `owned`, a byte range of the file, so that
    /// workers can split one mbox in parallel: the first range starts at 0 and is read as a whole
    /// file's start is; another range starts at its first separator, found by the same local
    /// rule as in a sequential read, so consecutive ranges hand over at the same From_ line. The
    /// last message may run past the range's end. `stream` must start at `owned.lowerBound - 3`
    /// (or 0): the empty-line test looks at the bytes before a From_ line.
    init(stream: InputByteStream, file: String, owning owned: Range<Int>, recordLimit: Int) {
        self.stream = stream
        self.file = file
        self.knownSize = nil
        self.recordLimit = recordLimit
        self.owned = owned
    }

    var bytesRead: Int { phase == .done ? stream.endOffset : recordStart }
    var totalBytes: Int? { knownSize }

    func next() -> InputItem? {
        switch phase {
        case .start:
            if let owned, owned.lowerBound > 0 {
                startInRange(owned)
            } else if let preamble = start() {
                return preamble
            }
            return phase == .messages ? next() : finish()
        case .messages:
            // A message starting past the owned range belongs to the next range's reader (also
            // the first message of the file, after more blank lines than the first range holds).
            if let owned, recordStart >= owned.upperBound {
                phase = .done
                return finish()
            }
            return nextMessage()
        case .done:
            return finish()
        }
    }

    /// After the last message: one `.malformed` if a read failed midway, then nil.
    private func finish() -> InputItem? {
        guard let error = stream.readError, !reportedReadError else { return nil }
        reportedReadError = true
        return .malformed(file: file, offset: stream.endOffset, reason: "read error: \(error)")
    }

    /// A range after the first: skips to its first separator; none before its end (one message
    /// runs through the whole range) means it owns nothing.
    private func startInRange(_ owned: Range<Int>) {
        stream.prefill(minimum: 8)
        if let first = fileStart(in: owned) {
            recordStart = first
            phase = .messages
            return
        }
        // Lines starting at or after the range's first byte: the LF before them is at lowerBound - 1.
        if let separator = scan(fromLine: owned.lowerBound, keeping: nil, giveUpAfter: owned.upperBound),
           separator < owned.upperBound {
            recordStart = separator
            phase = .messages
        } else {
            phase = .done
            recordStart = owned.upperBound
        }
    }

    /// The offset of the file's first `From ` line when this range owns it: only a BOM and blank
    /// bytes come before it, and it starts in `owned`. `start()` takes that line for a message
    /// whatever its shape, but in the first range only; after more blank lines than the first
    /// range holds, the local separator rule could miss it here, and the message was lost.
    /// Skips the blank bytes it reads (keeping the three before the line for `scan`). Checking the
    /// bytes before the stream's start reads the file from its beginning, up to the first other
    /// byte: at once for a file that does not start blank.
    private func fileStart(in owned: Range<Int>) -> Int? {
        var position = stream.bufferOffset
        // Bytes before offset 3 may be a BOM's: `onlyBlank(before:)` decides. (Skipping every byte
        // there skipped a From line at offset 1 or 2, after a CR: the message was lost.)
        func skippable(_ byte: UInt8, at offset: Int) -> Bool {
            InputShape.isBlank(byte) || (offset < 3 && (byte == 0xEF || byte == 0xBB || byte == 0xBF))
        }
        while position < owned.upperBound {
            while position < stream.endOffset, skippable(stream[position], at: position) { position += 1 }
            if position < stream.endOffset || !stream.fill(keepingFrom: max(position - 3, stream.bufferOffset)) { break }
        }
        guard owned.contains(position) else { return nil }
        while stream.endOffset - position < 5, stream.fill(keepingFrom: max(position - 3, stream.bufferOffset)) {}
        guard InputShape.startsWithFromSpace(stream.base + (position - stream.bufferOffset), stream.endOffset - position),
              onlyBlank(before: position) else { return nil }
        return position
    }

    /// Whether the file's bytes before absolute offset `end` are an optional BOM and blank bytes,
    /// as `start()` skips them.
    private func onlyBlank(before end: Int) -> Bool {
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        var offset = 0
        while offset < end {
            let got = chunk.withUnsafeMutableBytes { pread(stream.descriptor, $0.baseAddress, $0.count, off_t(offset)) }
            guard got > 0 else { return false }
            var i = 0
            if offset == 0, got >= 3, chunk[0] == 0xEF, chunk[1] == 0xBB, chunk[2] == 0xBF { i = 3 }
            while i < got, offset + i < end {
                guard InputShape.isBlank(chunk[i]) else { return false }
                i += 1
            }
            offset += got
        }
        return true
    }

    /// Skips a BOM and blank lines, then either finds the first From_ line or reports the text
    /// before it.
    private func start() -> InputItem? {
        stream.prefill(minimum: 8)
        var position = 0
        if stream.count >= 3, stream[0] == 0xEF, stream[1] == 0xBB, stream[2] == 0xBF { position = 3 }
        while true {
            while position < stream.endOffset, InputShape.isBlank(stream[position]) { position += 1 }
            if position < stream.endOffset { break }
            if !stream.fill(keepingFrom: position) {
                phase = .done
                return nil
            }
        }
        while stream.endOffset - position < 5, stream.fill(keepingFrom: position) {}
        let available = stream.endOffset - position
        if InputShape.startsWithFromSpace(stream.base + (position - stream.bufferOffset), available) {
            recordStart = position
            phase = .messages
            return nil
        }
        // Non-blank text before the first From_ line: one malformed record, whatever its size.
        if let separator = scan(fromLine: position, keeping: nil) {
            recordStart = separator
            phase = .messages
            return .malformed(file: file, offset: position, reason: "text before the first From line")
        }
        phase = .done
        return .malformed(file: file, offset: position, reason: "text before the first From line (no From line found)")
    }

    private func nextMessage() -> InputItem? {
        let record = recordStart
        // The From_ line itself.
        var newline: Int?
        var searched = record
        while true {
            let held = stream.endOffset - searched
            if held > 0, let found = memchr(stream.base + (searched - stream.bufferOffset), 0x0A, held) {
                newline = stream.bufferOffset + (found.assumingMemoryBound(to: UInt8.self) - stream.base)
                break
            }
            searched = stream.endOffset
            if searched - record > recordLimit { return skipOversized(record, from: searched) }
            if !stream.fill(keepingFrom: record) { break }
        }
        guard let fromLineEnd = newline else {
            phase = .done
            return .malformed(file: file, offset: record, reason: "From line with no message after it")
        }
        let bodyStart = fromLineEnd + 1
        var routed: (headers: EmailHeaders, route: EmailRoute)?
        if let router, let headers = headersInPlace(from: bodyStart, record: record) {
            let route = router(headers)
            if !route.wantsBody { return declined(record, bodyStart: bodyStart, headers: headers, route: route) }
            routed = (headers, route)
        }
        unquotes.removeAll(keepingCapacity: true)
        oversized = false
        let separator = scan(fromLine: bodyStart, keeping: record)
        // Also when the whole message happened to fit in the buffer: the limit must not depend on
        // how the input was chunked.
        if oversized || (separator ?? stream.endOffset) - record > recordLimit { return oversizedItem(record, next: separator) }
        var end = separator ?? stream.endOffset
        // Drop the empty line that the mbox writer put before the next From_ line.
        if end - bodyStart >= 2, stream[end - 1] == InputShape.lineFeed {
            if stream[end - 2] == InputShape.lineFeed {
                end -= 1
            } else if end - bodyStart >= 3, stream[end - 2] == InputShape.carriageReturn,
                      stream[end - 3] == InputShape.lineFeed {
                end -= 2
            }
        }
        if let separator { recordStart = separator } else { phase = .done; recordStart = stream.endOffset }
        var blank = true
        var i = bodyStart
        while i < end, blank { blank = InputShape.isBlank(stream[i]); i += 1 }
        if blank {
            return .malformed(file: file, offset: record, reason: "empty message after the From line")
        }
        // The headers read in place stand for the copy's, unless unquoting reached into them.
        if let parsed = routed, unquotes.contains(where: { $0 < bodyStart + parsed.headers.bodyOffset }) { routed = nil }
        return .email(RawEmail(bytes: copyMessage(from: bodyStart, to: end), file: file, offset: record, flags: nil,
                               headers: routed?.headers, route: routed?.route))
    }

    /// The header block of the message starting at absolute offset `start`, parsed where it lies
    /// (the buffer is filled further when it ends inside the block); nil when the first line is
    /// not a header, the block has no field at all (a blank message, reported as malformed by
    /// the usual path), or the block is longer than `routedHeaderLimit`.
    private func headersInPlace(from start: Int, record: Int) -> EmailHeaders? {
        while true {
            let available = stream.endOffset - start
            let buffer = UnsafeRawBufferPointer(start: stream.base + (start - stream.bufferOffset), count: available)
            guard let headers = MIMEDecoder.headers(in: buffer), !headers.spans.isEmpty else { return nil }
            if stream.atEOF || Self.endsWhole(buffer, at: headers.bodyOffset) { return headers }
            if available > Self.routedHeaderLimit { return nil }
            stream.fill(keepingFrom: record)
        }
    }

    /// Whether a header block that the scan ended at `bodyOffset` is whole although more input
    /// may follow: it ended with an empty line (LF or CRLF), or at a line that is not a header
    /// and that the buffer holds to its end (a line cut by the buffer's end could still turn out
    /// to be a header, or a continuation).
    private static func endsWhole(_ buffer: UnsafeRawBufferPointer, at bodyOffset: Int) -> Bool {
        let lf = InputShape.lineFeed, cr = InputShape.carriageReturn
        if bodyOffset >= 1, buffer[bodyOffset - 1] == lf {
            if bodyOffset == 1 || buffer[bodyOffset - 2] == lf { return true }
            if buffer[bodyOffset - 2] == cr, bodyOffset == 2 || buffer[bodyOffset - 3] == lf { return true }
        }
        guard bodyOffset < buffer.count, let base = buffer.baseAddress else { return false }
        return memchr(base + bodyOffset, 0x0A, buffer.count - bodyOffset) != nil
    }

    /// A message its router declined: the bytes up to the next separator are scanned and
    /// dropped as they go, so its body is never kept nor copied, whatever its size.
    private func declined(_ record: Int, bodyStart: Int, headers: EmailHeaders, route: EmailRoute) -> InputItem {
        oversized = false
        let separator = scan(fromLine: bodyStart, keeping: nil)
        if let separator { recordStart = separator } else { phase = .done; recordStart = stream.endOffset }
        return .email(RawEmail(bytes: [], file: file, offset: record, headers: headers, route: route))
    }

    /// A record larger than `recordLimit` whose From_ line has not even ended: drop bytes up to
    /// the next separator.
    private func skipOversized(_ record: Int, from position: Int) -> InputItem {
        oversized = true
        return oversizedItem(record, next: scan(fromLine: position, keeping: nil))
    }

    private func oversizedItem(_ record: Int, next separator: Int?) -> InputItem {
        if let separator { recordStart = separator } else { phase = .done; recordStart = stream.endOffset }
        return .malformed(file: file, offset: record, reason: "message larger than \(InputByteStream.describe(size: recordLimit)): skipped")
    }

    /// Copies `[start, end)` out of the buffer, leaving out the `>` bytes listed in `unquotes`.
    private func copyMessage(from start: Int, to end: Int) -> [UInt8] {
        let source = stream.base + (start - stream.bufferOffset)
        if unquotes.isEmpty { return Array(UnsafeBufferPointer(start: source, count: end - start)) }
        let drops = unquotes
        return [UInt8](unsafeUninitializedCapacity: end - start - drops.count) { target, written in
            var from = start
            var to = 0
            for drop in drops where drop >= start && drop < end {
                let length = drop - from
                (target.baseAddress! + to).update(from: source + (from - start), count: length)
                to += length
                from = drop + 1
            }
            (target.baseAddress! + to).update(from: source + (from - start), count: end - from)
            written = to + end - from
        }
    }

    /// Looks for the next separator after `lineStart` (absolute, at the start of a line, after an
    /// LF). Returns its absolute offset, or nil when the input ends first. With `keeping` set,
    /// bytes from there on stay in the buffer and `^>+From ` lines are recorded in `unquotes`;
    /// without it (text before the first From_ line) scanned bytes are dropped.
    ///
    /// Only lines starting with `F` or `>` matter, so the buffer is searched 64 bytes at a time
    /// for an LF followed by one of them (SIMD compares), not line by line.
    private func scan(fromLine lineStart: Int, keeping: Int?, giveUpAfter limit: Int = .max) -> Int? {
        var keeping = keeping
        // Absolute offset of the LF before the next candidate line to look at.
        var position = lineStart - 1
        while true {
            let base = stream.base
            let origin = stream.bufferOffset
            let count = stream.count
            let atEOF = stream.atEOF
            var j = max(position - origin, 0)
            var resume: Int?
            search: while j + 1 < count {
                if j + 65 <= count {
                    let m0 = Self.candidates(base + j), m1 = Self.candidates(base + j + 16)
                    let m2 = Self.candidates(base + j + 32), m3 = Self.candidates(base + j + 48)
                    if !any(m0 .| m1 .| m2 .| m3) { j += 64; continue }
                }
                // A candidate nearby (or the end of the buffer): look 16 bytes at a time.
                let blockEnd = min(j + 64, count - 1)
                while j < blockEnd {
                    if j + 17 <= count {
                        let hits = Self.candidates(base + j)
                        if any(hits) {
                            for lane in 0..<16 where hits[lane] {
                                switch examine(lineAt: j + lane + 1, base: base, count: count, atEOF: atEOF, keeping: keeping) {
                                case .separator: return origin + j + lane + 1
                                case .needMore: resume = j + lane; break search
                                case .none: continue
                                }
                            }
                        }
                        j += 16
                    } else {
                        if base[j] == InputShape.lineFeed, base[j + 1] == UInt8(ascii: "F") || base[j + 1] == UInt8(ascii: ">") {
                            switch examine(lineAt: j + 1, base: base, count: count, atEOF: atEOF, keeping: keeping) {
                            case .separator: return origin + j + 1
                            case .needMore: resume = j; break search
                            case .none: break
                            }
                        }
                        j += 1
                    }
                }
            }
            if resume == nil, atEOF { return nil }
            // Resume at the LF before an incomplete candidate, or at the last byte, whose
            // follower is not read yet.
            position = origin + (resume ?? max(count - 1, 0))
            if position > limit { return nil }
            if let kept = keeping, stream.endOffset - kept > recordLimit {
                // Too large to keep: drop it as it is scanned, and say so.
                oversized = true
                keeping = nil
            }
            // Keep three bytes before the line so that the empty-line test still sees them.
            let keep = keeping ?? max(origin, position - 2)
            stream.fill(keepingFrom: keep)
        }
    }

    /// Lanes `k` of the 16 bytes at `start` where `start[k]` is LF and `start[k + 1]` is `F` or
    /// `>` (reads 17 bytes).
    @inline(__always)
    private static func candidates(_ start: UnsafeMutablePointer<UInt8>) -> SIMDMask<SIMD16<Int8>> {
        let here = UnsafeRawPointer(start).loadUnaligned(as: SIMD16<UInt8>.self)
        let after = UnsafeRawPointer(start + 1).loadUnaligned(as: SIMD16<UInt8>.self)
        return (here .== SIMD16(repeating: InputShape.lineFeed))
            .& ((after .== SIMD16(repeating: UInt8(ascii: "F"))) .| (after .== SIMD16(repeating: UInt8(ascii: ">"))))
    }

    private enum Candidate { case separator, needMore, none }

    /// Examines the line at buffer index `i` (after an LF, starting with `F` or `>`).
    @inline(__always)
    private func examine(lineAt i: Int, base: UnsafeMutablePointer<UInt8>, count: Int, atEOF: Bool, keeping: Int?) -> Candidate {
        let lineEnd: Int
        if let found = memchr(base + i, 0x0A, count - i) {
            lineEnd = found.assumingMemoryBound(to: UInt8.self) - base
        } else if atEOF {
            lineEnd = count
        } else {
            return .needMore
        }
        if base[i] == UInt8(ascii: ">") {
            if keeping != nil, Self.isQuotedFromLine(base + i, lineEnd - i) { unquotes.append(stream.bufferOffset + i) }
            return .none
        }
        guard InputShape.isFromLine(base + i, lineEnd - i) else { return .none }
        let afterEmptyLine = (i >= 2 && base[i - 2] == InputShape.lineFeed)
            || (i >= 3 && base[i - 2] == InputShape.carriageReturn && base[i - 3] == InputShape.lineFeed)
        if afterEmptyLine { return .separator }
        let next = lineEnd + 1
        guard next < count else { return atEOF ? .none : .needMore }
        let nextEnd: Int
        if let found = memchr(base + next, 0x0A, count - next) {
            nextEnd = found.assumingMemoryBound(to: UInt8.self) - base
        } else if atEOF {
            nextEnd = count
        } else {
            return .needMore
        }
        return InputShape.isHeaderLine(base + next, nextEnd - next) ? .separator : .none
    }

    /// True for `>From `, `>>From `, …: a From line quoted by the mbox writer.
    @inline(__always)
    private static func isQuotedFromLine(_ start: UnsafePointer<UInt8>, _ length: Int) -> Bool {
        var i = 0
        while i < length, start[i] == UInt8(ascii: ">") { i += 1 }
        return InputShape.startsWithFromSpace(start + i, length - i)
    }
}
