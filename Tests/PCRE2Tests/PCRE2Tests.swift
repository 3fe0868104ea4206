import Testing
import PCRE2

/// Both matching engines: JIT (when available) and the interpreter.
let engines: [Bool] = [true, false]

@Suite("Compiling patterns")
struct CompileTests {
    @Test func captureCountAndGroupNames() throws {
        let pattern = try Pattern(#"(?<amount>\d+)\.(\d{2}) (?<currency>[A-Z]{3})(x)?"#)
        #expect(pattern.captureCount == 4)
        #expect(pattern.groupNames == [1: "amount", 3: "currency"])
        #expect(pattern.groupNumber(named: "amount") == 1)
        #expect(pattern.groupNumber(named: "currency") == 3)
        #expect(pattern.groupNumber(named: "nope") == nil)
        #expect(pattern.source == #"(?<amount>\d+)\.(\d{2}) (?<currency>[A-Z]{3})(x)?"#)
        #expect(pattern.options == [])
    }

    @Test func noGroups() throws {
        let pattern = try Pattern("abc")
        #expect(pattern.captureCount == 0)
        #expect(pattern.groupNames.isEmpty)
    }

    @Test func jitFlag() throws {
        let interpreted = try Pattern("a+", options: [], jit: false)
        #expect(!interpreted.isJITCompiled)
        let jitted = try Pattern("a+")
        // JIT support depends on the libpcre2 build and CPU; x86-64/arm64 builds have it.
        #expect(jitted.isJITCompiled == PCRE2Library.isJITAvailable)
    }

    @Test func jitOnFirstMatch() throws {
        let pattern = try Pattern(#"(?<amount>\d+)\.(\d{2})"#, options: [], jit: .onFirstMatch)
        #expect(!pattern.isJITCompiled)
        let scratch = MatchScratch()
        #expect(try pattern.firstMatch(in: "Rs 12.50", scratch: scratch)?.range == 3..<8)
        #expect(pattern.isJITCompiled == PCRE2Library.isJITAvailable)
        #expect(try pattern.firstMatch(in: "Rs 7.25 and 1.00", from: 8, scratch: scratch)?.range == 12..<16)
        // The callout visitor makes it too.
        let visited = try Pattern("a(?C1)b", options: [], jit: .onFirstMatch)
        var points = 0
        try visited.visitCallouts(in: "ab", scratch: scratch) { _ in points += 1 }
        #expect(points == 1)
        #expect(visited.isJITCompiled == PCRE2Library.isJITAvailable)
    }

    @Test func unclosedParenthesis() {
        let error = #expect(throws: PatternError.self) { try Pattern("(abc") }
        #expect(error?.code == 114)
        #expect(error?.message.isEmpty == false)
        #expect(error?.message.contains("parenthesis") == true)
        #expect(error?.offset == 4)
        #expect(error?.description.contains("byte offset 4") == true)
    }

    @Test func quantifierOutOfOrder() {
        let error = #expect(throws: PatternError.self) { try Pattern("a{2,1}") }
        #expect(error?.code == 104)
        #expect(error?.message.contains("out of order") == true)
        #expect(error?.offset == 5)
    }

    @Test func errorOffsetIsInUTF8Bytes() {
        // "₹" is 3 UTF-8 bytes, so the unclosed group ends at byte 3 + 1 + 3 = 7.
        let error = #expect(throws: PatternError.self) { try Pattern("₹(abc") }
        #expect(error?.offset == 7)
    }

    @Test func duplicateGroupNamesAreRejected() {
        let error = #expect(throws: PatternError.self) { try Pattern("(?<x>a)|(?<x>b)") }
        #expect(error?.code == 143)
        #expect(error?.message.isEmpty == false)
    }

    @Test(arguments: ["[a-", "*a", "a)", #"\"#, "(?<1x>a)", "(?P<n>a)(?P=m)"])
    func invalidPatternsThrow(source: String) {
        #expect(throws: PatternError.self) { try Pattern(source) }
    }

    @Test func emptyPatternMatchesEmpty() throws {
        let scratch = MatchScratch()
        let match = try Pattern("").firstMatch(in: "", scratch: scratch)
        #expect(match?.range == 0..<0)
    }
}

@Suite("Matching")
struct MatchTests {
    @Test("a match within a range: nothing past its end is seen, the text before it is (for ^ and \\b)", arguments: engines)
    func matchWithinRange(jit: Bool) throws {
        let scratch = MatchScratch()
        let text = "Ref ABC123 then Ref XYZ789 and more"
        let reference = try Pattern(#"\bRef (?<ref>[A-Z0-9]+)"#, options: [], jit: jit)
        // From offset 4 the first "Ref" is behind; up to 23 the second is cut to "XYZ" and still matches.
        let cut = try #require(try reference.firstMatch(in: text, from: 4, upTo: 23, scratch: scratch))
        #expect(text.utf8Slice(try #require(cut[1])) == "XYZ")
        #expect(try reference.firstMatch(in: text, from: 4, upTo: 19, scratch: scratch) == nil)
        // ^ is the text's start, not the range's; \b sees the character before the range.
        let anchored = try Pattern(#"^\w+"#, options: [], jit: jit)
        #expect(try anchored.firstMatch(in: text, from: 4, upTo: text.utf8.count, scratch: scratch) == nil)
        let word = try Pattern(#"\b[A-Z]{2}\d"#, options: [], jit: jit)
        #expect(try word.firstMatch(in: text, from: 5, upTo: 10, scratch: scratch) == nil)
        // An end before the start, or past the text, is PCRE2's bad-offset error.
        #expect(throws: MatchError.self) { try reference.firstMatch(in: text, from: 10, upTo: 5, scratch: scratch) }
        #expect(throws: MatchError.self) { try reference.firstMatch(in: text, from: 0, upTo: 99, scratch: scratch) }
    }

    @Test("firstRange finds what firstMatch finds, its groups read from the scratch until the next match", arguments: engines)
    func firstRangeAndLastGroup(jit: Bool) throws {
        let scratch = MatchScratch()
        let text = "Ref ABC123 then Ref XYZ789 and more"
        let reference = try Pattern(#"\bRef (?<ref>[A-Z0-9]+)( then)?"#, options: [], jit: jit)
        let whole = try #require(try reference.firstRange(in: text, from: 0, upTo: text.utf8.count, scratch: scratch))
        let match = try #require(try reference.firstMatch(in: text, from: 0, upTo: text.utf8.count, scratch: scratch))
        _ = try reference.firstRange(in: text, from: 0, upTo: text.utf8.count, scratch: scratch)
        #expect(whole == match.range)
        #expect(scratch.lastGroup(0) == match.range)
        #expect(scratch.lastGroup(1).map(text.utf8Slice) == "ABC123")
        #expect(scratch.lastGroup(2).map(text.utf8Slice) == " then")
        // Past the pattern's groups, or a group that took no part (the second "Ref" has no " then").
        #expect(scratch.lastGroup(3) == nil)
        #expect(scratch.lastGroup(-1) == nil)
        let second = try #require(try reference.firstRange(in: text, from: 5, upTo: text.utf8.count, scratch: scratch))
        #expect(text.utf8Slice(second) == "Ref XYZ789")
        #expect(scratch.lastGroup(2) == nil)
        // No match leaves no groups behind; a bad range is PCRE2's bad-offset error.
        #expect(try reference.firstRange(in: text, from: 0, upTo: 3, scratch: scratch) == nil)
        #expect(scratch.lastGroup(0) == nil)
        #expect(throws: MatchError.self) { try reference.firstRange(in: text, from: 10, upTo: 5, scratch: scratch) }
    }

    @Test(arguments: engines)
    func namedGroupsAndOffsets(jit: Bool) throws {
        let pattern = try Pattern(#"debited (?<currency>[A-Z]{3}) (?<amount>\d+(?:\.\d+)?)"#, options: [], jit: jit)
        let scratch = MatchScratch()
        let text = "Your a/c was debited INR 1250.50 on 01-Jan"
        let match = try #require(try pattern.firstMatch(in: text, scratch: scratch))
        #expect(match.range == 13..<32)
        #expect(match[0] == match.range)
        #expect(match.groups.count == 3)
        let currency = try #require(pattern.groupNumber(named: "currency"))
        let amount = try #require(pattern.groupNumber(named: "amount"))
        #expect(match[currency] == 21..<24)
        #expect(match[amount] == 25..<32)
        #expect(text.utf8Slice(try #require(match[currency])) == "INR")
        #expect(text.utf8Slice(try #require(match[amount])) == "1250.50")
        #expect(text.utf8Slice(match.range) == "debited INR 1250.50")
        #expect(match[3] == nil)
        #expect(match[-1] == nil)
    }

    @Test(arguments: engines)
    func unicodeOffsetsAreBytes(jit: Bool) throws {
        let pattern = try Pattern(#"₹\s?(?<amount>[\d,]+)"#, options: [], jit: jit)
        let scratch = MatchScratch()
        let text = "Paid ₹1,250 to Café ☕"
        let match = try #require(try pattern.firstMatch(in: text, scratch: scratch))
        // "Paid " is 5 bytes; "₹" is 3 bytes (5..<8); "1,250" is 8..<13.
        #expect(match.range == 5..<13)
        #expect(match[1] == 8..<13)
        #expect(text.utf8Slice(match.range) == "₹1,250")
        #expect(text.utf8Slice(try #require(match[1])) == "1,250")

        // "é" is 2 bytes, "☕" is 3 bytes.
        let cafe = try Pattern(#"Caf\w \X"#, options: [], jit: jit)
        let cafeMatch = try #require(try cafe.firstMatch(in: text, scratch: scratch))
        #expect(cafeMatch.range == 17..<26)
        #expect(text.utf8Slice(cafeMatch.range) == "Café ☕")
    }

    @Test(arguments: engines)
    func unicodeDigitsWithUCP(jit: Bool) throws {
        // PCRE2_UCP: \d matches any Unicode decimal digit, e.g. Devanagari.
        let pattern = try Pattern(#"^\d+$"#, options: [], jit: jit)
        let scratch = MatchScratch()
        #expect(try pattern.matches("१२३", scratch: scratch))
        #expect(try pattern.matches("123", scratch: scratch))
    }

    @Test(arguments: engines)
    func unsetOptionalGroupIsNil(jit: Bool) throws {
        let pattern = try Pattern(#"(a)(b)?(c)(?<tail>d)?"#, options: [], jit: jit)
        let scratch = MatchScratch()
        let match = try #require(try pattern.firstMatch(in: "xac", scratch: scratch))
        #expect(match.groups == [1..<3, 1..<2, nil, 2..<3, nil])
        #expect(match[2] == nil)
        #expect(match[pattern.groupNumber(named: "tail")!] == nil)
    }

    @Test(arguments: engines)
    func emptyGroupIsNotUnset(jit: Bool) throws {
        let pattern = try Pattern(#"a(x*)b"#, options: [], jit: jit)
        let match = try #require(try pattern.firstMatch(in: "ab", scratch: MatchScratch()))
        #expect(match[1] == 1..<1)
    }

    @Test(arguments: engines)
    func noMatch(jit: Bool) throws {
        let pattern = try Pattern("credited", options: [], jit: jit)
        let scratch = MatchScratch()
        #expect(try pattern.firstMatch(in: "debited INR 5", scratch: scratch) == nil)
        #expect(try pattern.firstMatch(in: Array("debited".utf8), scratch: scratch) == nil)
        #expect(try pattern.matches("debited INR 5", scratch: scratch) == false)
        #expect(try pattern.matches([UInt8](), scratch: scratch) == false)
        #expect(try pattern.firstMatch(in: "", scratch: scratch) == nil)
    }

    @Test(arguments: engines)
    func caseless(jit: Bool) throws {
        let sensitive = try Pattern("debited", options: [], jit: jit)
        let insensitive = try Pattern("debited", options: .caseless, jit: jit)
        let scratch = MatchScratch()
        #expect(try !sensitive.matches("DEBITED", scratch: scratch))
        #expect(try insensitive.matches("DEBITED", scratch: scratch))
        #expect(try insensitive.matches("DeBiTeD", scratch: scratch))
        // Unicode case folding.
        #expect(try Pattern("café", options: .caseless, jit: jit).matches("CAFÉ", scratch: scratch))
        #expect(insensitive.options == .caseless)
    }

    @Test(arguments: engines)
    func multilineDotAllExtended(jit: Bool) throws {
        let scratch = MatchScratch()
        let text = "line one\nline two"
        #expect(try !Pattern("^line two$", options: [], jit: jit).matches(text, scratch: scratch))
        #expect(try Pattern("^line two$", options: .multiline, jit: jit).matches(text, scratch: scratch))
        #expect(try !Pattern("one.line", options: [], jit: jit).matches(text, scratch: scratch))
        #expect(try Pattern("one.line", options: .dotAll, jit: jit).matches(text, scratch: scratch))
        let extended = try Pattern("line \\  two  # a comment", options: .extended, jit: jit)
        #expect(try extended.matches(text, scratch: scratch))
    }

    @Test(arguments: engines)
    func fromOffset(jit: Bool) throws {
        let pattern = try Pattern(#"\d+"#, options: [], jit: jit)
        let scratch = MatchScratch()
        let text = "₹10 and ₹20"  // ₹ 0..<3, "10" 3..<5, " and " 5..<10, ₹ 10..<13, "20" 13..<15
        #expect(try pattern.firstMatch(in: text, scratch: scratch)?.range == 3..<5)
        #expect(try pattern.firstMatch(in: text, from: 4, scratch: scratch)?.range == 4..<5)
        #expect(try pattern.firstMatch(in: text, from: 5, scratch: scratch)?.range == 13..<15)
        #expect(try pattern.firstMatch(in: Array(text.utf8), from: 5, scratch: scratch)?.range == 13..<15)
        #expect(try pattern.firstMatch(in: text, from: 15, scratch: scratch) == nil)
        // Lookbehind sees text before the start offset.
        let behind = try Pattern(#"(?<=₹)\d+"#, options: [], jit: jit)
        #expect(try behind.firstMatch(in: text, from: 5, scratch: scratch)?.range == 13..<15)
    }

    @Test(arguments: engines)
    func offsetPastEndIsAnError(jit: Bool) throws {
        let pattern = try Pattern("a", options: [], jit: jit)
        let scratch = MatchScratch()
        for offset in [4, 100, -1] {
            let error = #expect(throws: MatchError.self) {
                try pattern.firstMatch(in: "abc", from: offset, scratch: scratch)
            }
            guard case let .other(code, message)? = error else {
                Issue.record("expected .other, got \(String(describing: error))")
                continue
            }
            #expect(code == -33)  // PCRE2_ERROR_BADOFFSET
            #expect(!message.isEmpty)
        }
        #expect(throws: MatchError.self) {
            try pattern.firstMatch(in: Array("abc".utf8), from: 4, scratch: scratch)
        }
        // An offset equal to the length is valid (an empty match may occur there).
        #expect(try Pattern("$", options: [], jit: jit).firstMatch(in: "abc", from: 3, scratch: scratch)?.range == 3..<3)
    }

    @Test(arguments: engines)
    func offsetInsideMultibyteCharacterDoesNotCrash(jit: Bool) throws {
        let pattern = try Pattern(#"\d+"#, options: [], jit: jit)
        let scratch = MatchScratch()
        // Byte 1 is inside "₹"; with PCRE2_MATCH_INVALID_UTF that is just unmatched bytes.
        let match = try pattern.firstMatch(in: "₹42", from: 1, scratch: scratch)
        #expect(match?.range == 3..<5)
    }

    @Test(arguments: engines)
    func invalidUTF8Bytes(jit: Bool) throws {
        let pattern = try Pattern(#"[a-z]+ (\d+)"#, options: [], jit: jit)
        let scratch = MatchScratch()
        // 0xFF never appears in UTF-8; 0xC3 is a truncated 2-byte sequence; 0xE2 0x82 a truncated 3-byte one.
        let bytes: [UInt8] = [0xFF, 0xC3] + Array("debit 42".utf8) + [0xE2, 0x82, 0xFF, 0x80]
        let match = try #require(try pattern.firstMatch(in: bytes, scratch: scratch))
        #expect(match.range == 2..<10)
        #expect(match[1] == 8..<10)
        #expect(try pattern.matches(bytes, scratch: scratch))

        // Invalid bytes never match anything, not even ".".
        let any = try Pattern(".", options: [], jit: jit)
        #expect(try !any.matches([0xFF, 0xFE, 0xC3], scratch: scratch))
        #expect(try any.firstMatch(in: [0xFF, 0x41], scratch: scratch)?.range == 1..<2)
        // Random garbage does not crash.
        var generator = SystemRandomNumberGenerator()
        let dotStar = try Pattern(#"(\w+)\s*(.*?)$"#, options: .dotAll, jit: jit)
        for _ in 0..<200 {
            let garbage = (0..<Int.random(in: 0..<64, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            _ = try dotStar.firstMatch(in: garbage, scratch: scratch)
        }
    }

    @Test func bytesAndStringAgree() throws {
        let pattern = try Pattern(#"(?<a>\p{L}+)\s+(?<b>\p{N}+)"#)
        let scratch = MatchScratch()
        let text = "Überweisung ₹ Betrag 500 €"
        let fromString = try pattern.firstMatch(in: text, scratch: scratch)
        let fromBytes = try pattern.firstMatch(in: Array(text.utf8), scratch: scratch)
        #expect(fromString != nil)
        #expect(fromString == fromBytes)
    }

    @Test func nonNativeStringIsMatched() throws {
        // A Substring-derived and a lazily-bridged-looking string still match correctly.
        let pattern = try Pattern(#"\d+"#)
        let scratch = MatchScratch()
        let long = String(repeating: "x", count: 100) + "₹123"
        let slice = String(long.dropFirst(50))
        #expect(try pattern.firstMatch(in: slice, scratch: scratch)?.range == 53..<56)
    }
}

@Suite("Limits")
struct LimitTests {
    static let catastrophic = #"(a+)+$"#
    static let subject = String(repeating: "a", count: 46) + "!"

    @Test(arguments: engines)
    func catastrophicBacktrackingHitsMatchLimit(jit: Bool) throws {
        let pattern = try Pattern(Self.catastrophic, options: [], jit: jit)
        #expect(pattern.isJITCompiled == (jit && PCRE2Library.isJITAvailable))
        // Sanity: on a short subject the pattern simply fails to match, within default limits,
        // so the error below really comes from the limit, not from the pattern.
        let roomy = MatchScratch()
        #expect(try pattern.firstMatch(in: "aaaaaaaa!", scratch: roomy) == nil)
        #expect(try pattern.firstMatch(in: "aaaaaaaa", scratch: roomy)?.range == 0..<8)

        // 2^46 ways to split the a's: without a limit this would run for days.
        let tight = MatchScratch(matchLimit: 10_000)
        #expect(throws: MatchError.matchLimit) {
            try pattern.firstMatch(in: Self.subject, scratch: tight)
        }
        #expect(throws: MatchError.matchLimit) {
            try pattern.matches(Self.subject, scratch: tight)
        }
        #expect(throws: MatchError.matchLimit) {
            try pattern.firstMatch(in: Array(Self.subject.utf8), scratch: tight)
        }
        // The scratch is still usable after a limit error.
        #expect(try pattern.firstMatch(in: "aaa", scratch: tight)?.range == 0..<3)
    }

    @Test func depthLimitInInterpreter() throws {
        // Each iteration of a capturing alternation leaves a backtracking frame.
        let pattern = try Pattern(#"(a|b)*c"#, options: [], jit: false)
        let subject = String(repeating: "ab", count: 1_000) + "c"
        #expect(try pattern.matches(subject, scratch: MatchScratch()))
        #expect(throws: MatchError.depthLimit) {
            try pattern.matches(subject, scratch: MatchScratch(depthLimit: 100))
        }
    }

    @Test func heapLimitInInterpreterIsReportedAsDepthLimit() throws {
        let pattern = try Pattern(#"(a|b)*c"#, options: [], jit: false)
        let subject = String(repeating: "ab", count: 50_000) + "c"
        #expect(throws: MatchError.depthLimit) {
            try pattern.matches(subject, scratch: MatchScratch(depthLimit: 10_000_000, heapLimitKiB: 64))
        }
    }

    @Test(.enabled(if: PCRE2Library.isJITAvailable))
    func jitStackLimit() throws {
        let pattern = try Pattern(#"(a|b)*c"#)
        #expect(pattern.isJITCompiled)
        let subject = String(repeating: "ab", count: 200_000) + "c"
        #expect(try pattern.matches(subject, scratch: MatchScratch(jitStackMaxBytes: 64 << 20)))
        #expect(throws: MatchError.jitStackLimit) {
            try pattern.matches(subject, scratch: MatchScratch(jitStackMaxBytes: 32 * 1024))
        }
    }
}

@Suite("Scratch reuse and threads")
struct ScratchTests {
    @Test(arguments: engines)
    func scratchGrowsForPatternsWithManyGroups(jit: Bool) throws {
        let scratch = MatchScratch()
        let initial = scratch.ovectorPairCapacity
        let small = try Pattern(#"(\w)(\w)"#, options: [], jit: jit)
        let groupCount = initial + 10
        let big = try Pattern(String(repeating: #"(\w)"#, count: groupCount), options: [], jit: jit)
        #expect(big.captureCount == groupCount)
        let text = String(repeating: "z", count: groupCount) + "!"

        #expect(try small.firstMatch(in: text, scratch: scratch)?.groups.count == 3)
        #expect(scratch.ovectorPairCapacity == initial)

        let bigMatch = try #require(try big.firstMatch(in: text, scratch: scratch))
        #expect(scratch.ovectorPairCapacity >= groupCount + 1)
        #expect(bigMatch.groups.count == groupCount + 1)
        #expect(bigMatch[groupCount] == (groupCount - 1)..<groupCount)
        #expect(bigMatch.groups.allSatisfy { $0 != nil })

        // And back to the small pattern on the grown scratch.
        let smallMatch = try #require(try small.firstMatch(in: "ab", scratch: scratch))
        #expect(smallMatch.groups == [0..<2, 0..<1, 1..<2])
    }

    @Test func matchesDoesNotGrowTheScratch() throws {
        let scratch = MatchScratch()
        let initial = scratch.ovectorPairCapacity
        let big = try Pattern(String(repeating: #"(\w)"#, count: initial + 5))
        #expect(try big.matches(String(repeating: "q", count: initial + 5), scratch: scratch))
        #expect(try !big.matches("qq", scratch: scratch))
        #expect(scratch.ovectorPairCapacity == initial)
    }

    @Test func manyTasksShareOnePattern() async throws {
        let pattern = try Pattern(#"(?<kind>debited|credited) (?:INR|Rs\.?|₹) ?(?<amount>[\d,]+(?:\.\d{2})?)"#,
                                  options: .caseless)
        let subjects: [String] = (0..<500).map { index in
            switch index % 4 {
            case 0: "Your a/c XX12 is debited INR \(index).00 on 01-Jan"
            case 1: "₹\(index) CREDITED ₹\(index * 3) via UPI"
            case 2: "no amount here \(index)"
            default: "Credited Rs.\(index),000 by ☕ café"
            }
        }
        let scratch = MatchScratch()
        let expected = try subjects.map { try pattern.firstMatch(in: $0, scratch: scratch) }
        #expect(expected.compactMap { $0 }.count == 375)

        let results = try await withThrowingTaskGroup(of: [Match?].self) { group in
            for _ in 0..<8 {
                group.addTask {
                    let scratch = MatchScratch()  // one per task: scratch is not Sendable
                    var out: [Match?] = []
                    for _ in 0..<5 {
                        out = try subjects.map { try pattern.firstMatch(in: $0, scratch: scratch) }
                    }
                    return out
                }
            }
            var all: [[Match?]] = []
            for try await result in group { all.append(result) }
            return all
        }
        #expect(results.count == 8)
        for result in results {
            #expect(result == expected)
        }
    }

    /// Threads that all meet a pattern compiled on first match at once: one makes its machine
    /// code while the others wait, and each finds what the interpreter finds.
    @Test func manyThreadsMeetAPatternCompiledOnFirstMatch() async throws {
        let source = #"(?i)(?<kind>debited|credited|spent|paid) (?:INR|Rs\.?|₹) ?(?<amount>[\d,]+(?:\.\d{2})?)"#
        let interpreted = try Pattern(source, options: [], jit: false)
        let subjects = (0..<200).map { "Rs \($0) paid; ₹\($0 * 7).50 DEBITED ₹\($0),000 credited" }
        let scratch = MatchScratch()
        let expected = try subjects.map { try interpreted.firstMatch(in: $0, from: 8, scratch: scratch) }
        for _ in 0..<20 {
            let pattern = try Pattern(source, options: [], jit: .onFirstMatch)
            let results = try await withThrowingTaskGroup(of: [Match?].self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        let scratch = MatchScratch()
                        return try subjects.map { try pattern.firstMatch(in: $0, from: 8, scratch: scratch) }
                    }
                }
                var all: [[Match?]] = []
                for try await result in group { all.append(result) }
                return all
            }
            #expect(results.allSatisfy { $0 == expected })
            #expect(pattern.isJITCompiled == PCRE2Library.isJITAvailable)
        }
    }
}

@Suite("utf8Slice")
struct UTF8SliceTests {
    @Test(arguments: [
        (0..<3, "₹"),
        (3..<6, "100"),
        (0..<0, ""),
        (6..<8, "é"),
    ] as [(Range<Int>, String)])
    func slices(range: Range<Int>, expected: String) {
        #expect("₹100é".utf8Slice(range) == expected)
    }

    @Test func partialCharacterIsReplaced() {
        #expect("₹".utf8Slice(0..<2) == "\u{FFFD}")
    }
}
