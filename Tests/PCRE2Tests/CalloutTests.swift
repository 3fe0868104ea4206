import Testing
import PCRE2

@Suite("Callouts: every path that can match")
struct CalloutTests {
    @Test(arguments: [true, false])
    func visitsEveryBranchAtEveryPosition(jit: Bool) throws {
        // Branch groups 1, 2, 3; "uber" and "uber eats" both match at 0, "eats" at 5.
        let pattern = try Pattern(#"(?i)(?:uber eats()|uber()|eats())(?C1)"#, options: [], jit: jit)
        let scratch = MatchScratch()
        var seen: [CalloutPoint] = []
        try pattern.visitCallouts(in: "UBER EATS order", scratch: scratch) { seen.append($0) }
        #expect(Set(seen.map(\.lastClosedGroup)) == [1, 2, 3])
        #expect(seen.contains(CalloutPoint(lastClosedGroup: 1, start: 0, end: 9)))
        #expect(seen.contains(CalloutPoint(lastClosedGroup: 3, start: 5, end: 9)))
    }

    @Test(arguments: [true, false])
    func marksNameTheBranchWithoutGroups(jit: Bool) throws {
        let pattern = try Pattern(#"(?i)(?:uber eats(*MARK:7)|uber(*MARK:12)|eats(*MARK:x))\b(?C1)"#, options: [], jit: jit)
        var seen: Set<[Int?]> = []
        try pattern.visitCallouts(in: "UBER EATS", scratch: MatchScratch()) { seen.insert([$0.markNumber, $0.start]) }
        #expect(pattern.captureCount == 0)
        #expect(seen == [[7, 0], [12, 0], [nil, 5]])
    }

    @Test(arguments: [true, false])
    func noPathMeansNoVisit(jit: Bool) throws {
        let pattern = try Pattern(#"(?:abc())(?C1)"#, options: [], jit: jit)
        var count = 0
        try pattern.visitCallouts(in: "xyz", scratch: MatchScratch()) { _ in count += 1 }
        #expect(count == 0)
        // The scratch's match context is left without a callout: ordinary matching still works.
        let scratch = MatchScratch()
        try pattern.visitCallouts(in: "abc", scratch: scratch) { _ in count += 1 }
        #expect(count == 1)
        #expect(try pattern.matches("abc", scratch: scratch))
    }
}

/// `furthestReach`: where matching stopped in a pattern compiled with auto callouts.
@Suite("furthest reach")
struct FurthestReachTests {
    @Test("the furthest point in the pattern, and the text matched by then")
    func furthest() throws {
        let pattern = try Pattern("card purchase of \\$\\d+ at [A-Z]+\\.", options: [.autoCallout], jit: false)
        let scratch = MatchScratch()
        let text = "card refund of $5 at SHOP."
        let reach = try #require(try pattern.furthestReach(in: text, scratch: scratch))
        // "card " matched; the next item, the "p" of purchase, did not.
        #expect(reach.patternOffset == 5)
        #expect(Array(Array(text.utf8)[reach.textStart..<reach.textEnd]) == Array("card ".utf8))
        // Further on, a later attempt that gets further wins.
        let later = try #require(try pattern.furthestReach(in: "x card purchase of $12 at shop.", scratch: scratch))
        #expect(later.patternOffset == "card purchase of \\$\\d+ at ".utf8.count)
    }

    @Test("a catastrophic pattern hits the match limit instead of running on")
    func limit() throws {
        let pattern = try Pattern("^(a+)+$", options: [.autoCallout], jit: false)
        let scratch = MatchScratch(matchLimit: 10_000)
        #expect(throws: MatchError.self) {
            _ = try pattern.furthestReach(in: String(repeating: "a", count: 30) + "b", scratch: scratch)
        }
    }
}
