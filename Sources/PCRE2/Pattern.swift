internal import CPCRE2
import Synchronization

/// When a pattern's machine code is made.
public enum JITCompilation: Sendable {
    /// Never: the interpreter matches (it honours the depth and heap limits the JIT ignores).
    case never
    /// When the pattern is compiled.
    case atOnce
    /// Before its first match, by the thread that asks for it (others wait for it). For rule
    /// packs, most of whose patterns a run never tries: the bundled pack's 1,300 patterns made
    /// 48 MiB of machine code and 44% of start-up's time when all were compiled at once, while a
    /// run over one country's messages tries a few hundred of them.
    case onFirstMatch
}

/// A compiled pattern: immutable, shareable across threads (pcre2_code is read-only during matching).
///
/// Every pattern is compiled with `PCRE2_UTF | PCRE2_UCP | PCRE2_MATCH_INVALID_UTF`
/// plus the given ``PatternOptions``:
/// - `PCRE2_UTF`: the pattern and subjects are UTF-8; `.` and classes work on code points.
/// - `PCRE2_UCP`: `\d`, `\w`, `\s`, `\b` and POSIX classes use Unicode properties
///   (so `\d` matches `१` and `\w` matches `é`).
/// - `PCRE2_MATCH_INVALID_UTF`: subjects may contain invalid UTF-8. Without it,
///   `pcre2_jit_match` performs no UTF validity check at all and invalid input is
///   undefined behaviour (a crash or an out-of-bounds read), and `pcre2_match`
///   would reject the whole subject. With it, both the JIT and the interpreter
///   treat an invalid sequence as something no pattern item matches, so matching
///   arbitrary bytes is memory-safe and still finds matches in the valid parts.
///
/// The pattern is then JIT-compiled (`PCRE2_JIT_COMPLETE`), at once or before its first match
/// (``JITCompilation``), when the library and CPU support it; otherwise the interpreter is used
/// (see ``isJITCompiled``).
///
/// All offsets in and out of a pattern are UTF-8 byte offsets into the subject.
public final class Pattern: @unchecked Sendable {
    // @unchecked Sendable is safe: `code` is set once in init and only freed in
    // deinit. PCRE2 documents that a compiled pcre2_code (including its JIT code)
    // is never modified by matching and may be used by several threads at once,
    // provided each thread has its own match data and JIT stack — which is what
    // MatchScratch (not Sendable) is for. JIT compilation does modify it: a pattern
    // compiled on first match is compiled under `jitLock` while `jitState` says that no
    // thread may match with it yet (every thread that finds it so waits on the lock), and
    // published with a release store. Every other stored property is an immutable
    // Sendable value.

    /// The compiled `pcre2_code_8`, owned by this object.
    let code: OpaquePointer

    /// `Self.notYet` (JIT-compile before the first match), `Self.interpreted` (match with the
    /// interpreter), or `Self.jitted` (`code` holds machine code).
    private let jitState: Atomic<UInt8>
    private let jitLock = Mutex<Void>(())
    private static let notYet: UInt8 = 0
    private static let interpreted: UInt8 = 1
    private static let jitted: UInt8 = 2

    /// The pattern source, exactly as given to ``init(_:options:)``.
    public let source: String

    /// The options the pattern was compiled with (in addition to the always-on UTF ones).
    public let options: PatternOptions

    /// The number of capture groups, not counting group 0 (the whole match).
    public let captureCount: Int

    /// Group number → group name, for named groups only (from `PCRE2_INFO_NAMETABLE`).
    public let groupNames: [Int: String]

    /// Group name → group number; the inverse of ``groupNames``.
    private let groupNumbers: [String: Int]

    /// Whether the pattern is JIT-compiled (a pattern compiled on first match: once it has
    /// been matched). When `false`, matching uses PCRE2's interpreter (slower, but same
    /// results, and it honours the depth and heap limits that the JIT ignores).
    public var isJITCompiled: Bool { jitState.load(ordering: .acquiring) == Self.jitted }

    /// Compiles `source` with the given options, JIT-compiling it when possible.
    ///
    /// - Throws: ``PatternError`` with PCRE2's code, message and the UTF-8 byte
    ///   offset in `source` where compilation stopped.
    public convenience init(_ source: String, options: PatternOptions = []) throws(PatternError) {
        try self.init(source, options: options, jit: .atOnce)
    }

    /// Compiles `source` with the given options; `jit: false` skips JIT compilation
    /// and always uses the interpreter (for tests, or to get depth/heap limits).
    public convenience init(_ source: String, options: PatternOptions, jit: Bool) throws(PatternError) {
        try self.init(source, options: options, jit: jit ? .atOnce : .never)
    }

    /// Compiles `source` with the given options, its machine code made when `jit` says.
    ///
    /// - Throws: ``PatternError`` with PCRE2's code, message and the UTF-8 byte
    ///   offset in `source` where compilation stopped.
    public init(_ source: String, options: PatternOptions, jit: JITCompilation) throws(PatternError) {
        self.source = source
        self.options = options

        let compileOptions = options.rawValue | PCRE2_UTF | PCRE2_UCP | PCRE2_MATCH_INVALID_UTF
        var errorCode: Int32 = 0
        var errorOffset: Int = 0
        var text = source
        let compiled = text.withUTF8 { bytes in
            withNonNilBase(bytes) { base, count in
                pcre2_compile_8(base, count, compileOptions, &errorCode, &errorOffset, nil)
            }
        }
        guard let compiled else {
            throw PatternError(code: errorCode, message: pcre2ErrorMessage(errorCode), offset: errorOffset)
        }
        code = compiled
        switch jit {
        case .never: jitState = Atomic(Self.interpreted)
        case .atOnce: jitState = Atomic(Self.jitCompile(compiled))
        case .onFirstMatch: jitState = Atomic(Self.notYet)
        }

        var count: UInt32 = 0
        pcre2_pattern_info_8(compiled, UInt32(PCRE2_INFO_CAPTURECOUNT), &count)
        captureCount = Int(count)

        var names: [Int: String] = [:]
        var nameCount: UInt32 = 0
        var entrySize: UInt32 = 0
        var table: UnsafePointer<UInt8>? = nil
        pcre2_pattern_info_8(compiled, UInt32(PCRE2_INFO_NAMECOUNT), &nameCount)
        pcre2_pattern_info_8(compiled, UInt32(PCRE2_INFO_NAMEENTRYSIZE), &entrySize)
        pcre2_pattern_info_8(compiled, UInt32(PCRE2_INFO_NAMETABLE), &table)
        if let table, nameCount > 0 {
            // Each entry: group number as 2 big-endian bytes, then the NUL-terminated name.
            for index in 0..<Int(nameCount) {
                let entry = table + index * Int(entrySize)
                let number = Int(entry[0]) << 8 | Int(entry[1])
                names[number] = String(cString: entry + 2)
            }
        }
        groupNames = names
        groupNumbers = Dictionary(names.map { ($0.value, $0.key) }, uniquingKeysWith: min)
    }

    deinit {
        pcre2_code_free_8(code)
    }

    /// Makes `code`'s machine code: the state to record (the interpreter where JIT is not
    /// available or fails).
    private static func jitCompile(_ code: OpaquePointer) -> UInt8 {
        pcre2_jit_compile_8(code, PCRE2_JIT_COMPLETE) == 0 ? jitted : interpreted
    }

    /// Whether to match with machine code: JIT-compiling the pattern first if it waits for its
    /// first match.
    @inline(__always)
    func usesJIT() -> Bool {
        let state = jitState.load(ordering: .acquiring)
        return state == Self.notYet ? compileOnFirstMatch() : state == Self.jitted
    }

    @inline(never)
    private func compileOnFirstMatch() -> Bool {
        jitLock.withLock { _ in
            var state = jitState.load(ordering: .acquiring)
            if state == Self.notYet {
                state = Self.jitCompile(code)
                jitState.store(state, ordering: .releasing)
            }
            return state == Self.jitted
        }
    }

    /// The group number of the named group `name`, or `nil` if there is no such group.
    public func groupNumber(named name: String) -> Int? {
        groupNumbers[name]
    }

    // MARK: - Matching

    /// First match at or after `offset` (UTF-8 byte offset). nil when there is none.
    ///
    /// The string's UTF-8 storage is used in place (no copy for native strings);
    /// the returned ranges are UTF-8 byte offsets into `text` (use ``Swift/String/utf8Slice(_:)``).
    /// Allocates only the returned match's `groups` array.
    ///
    /// - Throws: ``MatchError`` when a limit in `scratch` is hit, or
    ///   `.other(code: -33, ...)` (`PCRE2_ERROR_BADOFFSET`) when `offset` is negative
    ///   or past the end of `text`.
    public func firstMatch(in text: String, from offset: Int = 0, scratch: MatchScratch) throws(MatchError) -> Match? {
        let matchData = scratch.matchData(atLeast: captureCount + 1)
        var text = text
        let rc = text.withUTF8 { run($0, from: offset, matchData: matchData, scratch: scratch) }
        return try extractMatch(rc, matchData: matchData)
    }

    /// First match at or after `offset` that ends at or before `end` (UTF-8 byte offsets): the
    /// text past `end` is not seen, as if the subject stopped there, while the text before
    /// `offset` is (so `^`, `\b` and lookbehinds see the real start). Ranges are offsets into `text`.
    ///
    /// - Throws: as ``firstMatch(in:from:scratch:)``; `PCRE2_ERROR_BADOFFSET` also when `end` is
    ///   before `offset` or past the end of `text`.
    public func firstMatch(in text: String, from offset: Int, upTo end: Int, scratch: MatchScratch) throws(MatchError) -> Match? {
        let matchData = scratch.matchData(atLeast: captureCount + 1)
        let rc = run(text, from: offset, upTo: end, matchData: matchData, scratch: scratch)
        return try extractMatch(rc, matchData: matchData)
    }

    /// The range of the first match at or after `offset` that ends at or before `end`, as
    /// ``firstMatch(in:from:upTo:scratch:)`` finds it, without building a ``Match``: each group's
    /// range is then ``MatchScratch/lastGroup(_:)`` until the scratch's next match. Allocates
    /// nothing: for callers that try many matches and read a group or two of each (the field
    /// layer's finders and named alternations, which built a `Match` array per match).
    public func firstRange(in text: String, from offset: Int, upTo end: Int, scratch: MatchScratch) throws(MatchError) -> Range<Int>? {
        let rc = run(text, from: offset, upTo: end, matchData: scratch.matchData(atLeast: captureCount + 1), scratch: scratch)
        guard try matched(rc) else {
            scratch.lastPairs = 0
            return nil
        }
        // rc is one more than the highest pair set (0: the ovector was too small, which the
        // scratch's growth above rules out).
        scratch.lastPairs = rc == 0 ? captureCount + 1 : Int(rc)
        return scratch.lastGroup(0)
    }

    /// First match at or after `offset` (UTF-8 byte offset) in arbitrary bytes,
    /// which need not be valid UTF-8 (invalid sequences never match). nil when there is none.
    ///
    /// Returned ranges are byte offsets into `bytes`. Allocates only the returned
    /// match's `groups` array.
    ///
    /// - Throws: ``MatchError`` when a limit in `scratch` is hit, or
    ///   `.other(code: -33, ...)` (`PCRE2_ERROR_BADOFFSET`) when `offset` is negative
    ///   or past the end of `bytes`.
    public func firstMatch(in bytes: [UInt8], from offset: Int = 0, scratch: MatchScratch) throws(MatchError) -> Match? {
        let matchData = scratch.matchData(atLeast: captureCount + 1)
        let rc = bytes.withUnsafeBufferPointer { run($0, from: offset, matchData: matchData, scratch: scratch) }
        return try extractMatch(rc, matchData: matchData)
    }

    /// Whether the pattern matches anywhere; cheaper: no capture extraction.
    /// Does not allocate.
    ///
    /// - Throws: ``MatchError`` when a limit in `scratch` is hit.
    public func matches(_ text: String, scratch: MatchScratch) throws(MatchError) -> Bool {
        // Any match data works: a too-small ovector just makes PCRE2 return 0
        // ("matched, offsets truncated"), so the scratch is never grown here.
        var text = text
        let rc = text.withUTF8 { run($0, from: 0, matchData: scratch.matchData, scratch: scratch) }
        return try matched(rc)
    }

    /// Whether the pattern matches anywhere in arbitrary bytes (invalid UTF-8
    /// never matches); cheaper: no capture extraction. Does not allocate.
    ///
    /// - Throws: ``MatchError`` when a limit in `scratch` is hit.
    public func matches(_ bytes: [UInt8], scratch: MatchScratch) throws(MatchError) -> Bool {
        let rc = bytes.withUnsafeBufferPointer { run($0, from: 0, matchData: scratch.matchData, scratch: scratch) }
        return try matched(rc)
    }

    // MARK: - Internals

    /// Runs one PCRE2 match; returns PCRE2's result code.
    @inline(__always)
    private func run(
        _ subject: UnsafeBufferPointer<UInt8>,
        from offset: Int,
        matchData: OpaquePointer,
        scratch: MatchScratch
    ) -> Int32 {
        // pcre2_jit_match is PCRE2's fast path and does no argument checks at all:
        // an offset past the end would read out of bounds. PCRE2_SIZE is unsigned,
        // so a negative offset would wrap. Reject both the way pcre2_match does.
        guard offset >= 0, offset <= subject.count else { return PCRE2_ERROR_BADOFFSET }
        let context = scratch.matchContext
        guard PatternProfile.isOn else { return match(subject, from: offset, matchData: matchData, context: context) }
        return profiled(subject, from: offset, matchData: matchData, context: context)
    }

    /// `match` timed and counted, for `PatternProfile`; out of line, so that the usual path stays small.
    @inline(never)
    private func profiled(_ subject: UnsafeBufferPointer<UInt8>, from offset: Int, matchData: OpaquePointer,
                          context: OpaquePointer) -> Int32 {
        let start = ContinuousClock.now
        let rc = match(subject, from: offset, matchData: matchData, context: context)
        let elapsed = ContinuousClock.now - start
        let nanoseconds = elapsed.components.seconds * 1_000_000_000 + elapsed.components.attoseconds / 1_000_000_000
        PatternProfile.record(self, bytes: subject.count - offset, matched: rc >= 0, nanoseconds: nanoseconds)
        return rc
    }

    /// One PCRE2 match call, JIT-compiled code when there is some.
    @inline(__always)
    private func match(_ subject: UnsafeBufferPointer<UInt8>, from offset: Int, matchData: OpaquePointer,
                       context: OpaquePointer) -> Int32 {
        let jit = usesJIT()
        return withNonNilBase(subject) { base, count in
            jit
                ? pcre2_jit_match_8(code, base, count, offset, 0, matchData, context)
                : pcre2_match_8(code, base, count, offset, 0, matchData, context)
        }
    }

    @inline(__always)
    private func matched(_ rc: Int32) throws(MatchError) -> Bool {
        if rc >= 0 { return true }
        if rc == PCRE2_ERROR_NOMATCH { return false }
        throw MatchError(pcre2Code: rc)
    }

    /// A match attempt on `text` cut at `end` (the text before `offset` still seen); PCRE2's
    /// bad-offset code when `end` is before `offset` or past the text.
    private func run(_ text: String, from offset: Int, upTo end: Int, matchData: OpaquePointer, scratch: MatchScratch) -> Int32 {
        var text = text
        return text.withUTF8 { bytes in
            end >= offset && end <= bytes.count
                ? run(UnsafeBufferPointer(rebasing: bytes[..<end]), from: offset, matchData: matchData, scratch: scratch)
                : PCRE2_ERROR_BADOFFSET
        }
    }

    /// Reads the ovector after a successful match into a ``Match``.
    @inline(__always)
    private func extractMatch(_ rc: Int32, matchData: OpaquePointer) throws(MatchError) -> Match? {
        guard try matched(rc) else { return nil }
        let ovector = pcre2_get_ovector_pointer_8(matchData)!
        let available = Int(pcre2_get_ovector_count_8(matchData))
        // rc is one more than the highest pair set; 0 means "ovector too small",
        // which cannot happen since the scratch was grown to captureCount + 1.
        let setPairs = rc == 0 ? available : min(Int(rc), available)
        // size_t imports as Int, so PCRE2_UNSET (SIZE_MAX) reads as -1 here.
        let unset = cpcre2_unset()
        var groups: [Range<Int>?] = []
        groups.reserveCapacity(captureCount + 1)
        for pair in 0...captureCount {
            guard pair < setPairs else {
                groups.append(nil)
                continue
            }
            let start = ovector[2 * pair]
            let end = ovector[2 * pair + 1]
            if start == unset || end == unset || start < 0 || end < 0 {
                groups.append(nil)
            } else {
                // \K can in principle put the start after the end; never build an invalid Range.
                groups.append(min(start, end)..<max(start, end))
            }
        }
        return Match(groups: groups)
    }
}

/// Calls `body` with a non-nil base address for `buffer` (PCRE2 rejects a NULL
/// subject or pattern even when its length is 0).
@inline(__always)
private func withNonNilBase<R>(
    _ buffer: UnsafeBufferPointer<UInt8>,
    _ body: (UnsafePointer<UInt8>, Int) -> R
) -> R {
    if let base = buffer.baseAddress {
        return body(base, buffer.count)
    }
    var empty: UInt8 = 0
    return withUnsafePointer(to: &empty) { body($0, 0) }
}
