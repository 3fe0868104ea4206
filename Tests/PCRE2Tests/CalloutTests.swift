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
