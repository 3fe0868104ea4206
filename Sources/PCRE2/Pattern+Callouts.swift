internal import CPCRE2

/// Where matching stood when it reached a callout `(?C)`.
public struct CalloutPoint: Sendable, Equatable {
    /// The number of the most recently closed capture group (0 when none has closed yet):
    /// with an empty group `()` written just before the callout, it names the branch taken.
    public let lastClosedGroup: Int
    /// Where this match attempt started: a UTF-8 byte offset into the subject.
    public let start: Int
    /// Where matching stands at the callout: a UTF-8 byte offset into the subject.
    public let end: Int
    /// The name of the most recently passed `(*MARK:NAME)` read as a decimal number; nil when
    /// no mark was passed or its name is not a number. With a `(*MARK:n)` at the end of each
    /// alternative, it names the branch taken, without the cost of capture groups (which
    /// matching resets at every start position).
    public let markNumber: Int?

    /// Creates a point (offsets in UTF-8 bytes).
    public init(lastClosedGroup: Int, start: Int, end: Int, markNumber: Int? = nil) {
        self.lastClosedGroup = lastClosedGroup
        self.start = start
        self.end = end
        self.markNumber = markNumber
    }
}

extension Pattern {
    /// Runs the pattern to exhaustion over `text`: every time matching reaches a callout
    /// (`(?C)`, `(?C1)`, ...), calls `visit`, then backtracks as if the match had failed
    /// there. So every path through the pattern that reaches a callout, at every start
    /// position, is visited once; one call tells which of many alternatives can match,
    /// instead of one match per alternative.
    ///
    /// Start-of-match optimizations only skip positions where no path can reach a callout;
    /// auto-possessification may merge paths that differ only in how much a repeat took.
    ///
    /// - Throws: ``MatchError`` when a limit in `scratch` is hit (the backtracking steps of
    ///   every path count towards the match limit).
    public func visitCallouts(in text: String, scratch: MatchScratch,
                              _ visit: (CalloutPoint) -> Void) throws(MatchError) {
        try withoutActuallyEscaping(visit) { (escapable) throws(MatchError) in
            var visitor = CalloutVisitor(visit: escapable)
            let context = scratch.matchContext
            // Room for every group: capture_last is read from the ovector.
            let matchData = scratch.matchData(atLeast: captureCount + 1)
            var text = text
            let jit = usesJIT()
            let rc: Int32 = withUnsafeMutablePointer(to: &visitor) { visitorPointer in
                pcre2_set_callout_8(context, calloutTrampoline, UnsafeMutableRawPointer(visitorPointer))
                defer { pcre2_set_callout_8(context, nil, nil) }
                return text.withUTF8 { bytes in
                    var empty: UInt8 = 0
                    return withUnsafePointer(to: &empty) { emptyPointer in
                        let base = bytes.baseAddress ?? emptyPointer
                        return jit
                            ? pcre2_jit_match_8(code, base, bytes.count, 0, 0, matchData, context)
                            : pcre2_match_8(code, base, bytes.count, 0, 0, matchData, context)
                    }
                }
            }
            if rc < 0 && rc != PCRE2_ERROR_NOMATCH { throw MatchError(pcre2Code: rc) }
        }
    }
}

/// The Swift closure a callout reaches, passed to PCRE2 as the callout's data pointer.
private struct CalloutVisitor {
    let visit: (CalloutPoint) -> Void
}

/// PCRE2's callout function: reports the point and returns 1 ("fail here, backtrack").
private let calloutTrampoline: @convention(c) (UnsafeMutablePointer<pcre2_callout_block_8>?,
                                               UnsafeMutableRawPointer?) -> Int32 = { block, data in
    guard let block, let data else { return 1 }
    let visitor = data.assumingMemoryBound(to: CalloutVisitor.self)
    var markNumber: Int?
    if var mark = block.pointee.mark, mark.pointee != 0 {
        // A zero-terminated name; read it as digits without making a String.
        var number = 0
        while mark.pointee >= 0x30 && mark.pointee <= 0x39 && number < Int.max / 10 - 9 {
            number = number * 10 + Int(mark.pointee - 0x30)
            mark += 1
        }
        if mark.pointee == 0 { markNumber = number }
    }
    visitor.pointee.visit(CalloutPoint(lastClosedGroup: Int(block.pointee.capture_last),
                                       start: Int(block.pointee.start_match),
                                       end: Int(block.pointee.current_position), markNumber: markNumber))
    return 1
}

/// How far a pattern got on a text it does not match: the furthest place in the pattern that
/// matching reached, and the text it had matched by then.
public struct PatternReach: Sendable, Equatable {
    /// The UTF-8 offset in the pattern of the next item to match at the furthest point reached:
    /// everything before it matched, the item there did not.
    public let patternOffset: Int
    /// Where that attempt started in the text (UTF-8 offset).
    public let textStart: Int
    /// Where it had got to in the text (UTF-8 offset).
    public let textEnd: Int
}

extension Pattern {
    /// For a pattern compiled with ``PatternOptions/autoCallout`` (without JIT): runs it over
    /// `text` and returns the furthest point in the pattern that any attempt reached, at any start
    /// position; with equal points, the attempt that had matched the most text. nil when no item
    /// was reached at all. What regex debuggers show as "matching stopped here".
    ///
    /// - Throws: ``MatchError`` when a limit in `scratch` is hit (a catastrophic pattern).
    public func furthestReach(in text: String, scratch: MatchScratch) throws(MatchError) -> PatternReach? {
        var tracker = ReachTracker()
        let context = scratch.matchContext
        let matchData = scratch.matchData(atLeast: captureCount + 1)
        var text = text
        let rc: Int32 = withUnsafeMutablePointer(to: &tracker) { trackerPointer in
            pcre2_set_callout_8(context, reachTrampoline, UnsafeMutableRawPointer(trackerPointer))
            defer { pcre2_set_callout_8(context, nil, nil) }
            return text.withUTF8 { bytes in
                var empty: UInt8 = 0
                return withUnsafePointer(to: &empty) { emptyPointer in
                    pcre2_match_8(code, bytes.baseAddress ?? emptyPointer, bytes.count, 0, 0, matchData, context)
                }
            }
        }
        if rc < 0 && rc != PCRE2_ERROR_NOMATCH { throw MatchError(pcre2Code: rc) }
        return tracker.best
    }
}

/// The furthest point seen so far, updated by every auto callout.
private struct ReachTracker {
    var best: PatternReach?
}

/// PCRE2's callout function for `furthestReach`: records the point and returns 0 (go on).
private let reachTrampoline: @convention(c) (UnsafeMutablePointer<pcre2_callout_block_8>?,
                                             UnsafeMutableRawPointer?) -> Int32 = { block, data in
    guard let block, let data else { return 0 }
    let tracker = data.assumingMemoryBound(to: ReachTracker.self)
    let point = PatternReach(patternOffset: Int(block.pointee.pattern_position), textStart: Int(block.pointee.start_match),
                             textEnd: Int(block.pointee.current_position))
    if let best = tracker.pointee.best {
        if point.patternOffset > best.patternOffset
            || (point.patternOffset == best.patternOffset && point.textEnd - point.textStart > best.textEnd - best.textStart) {
            tracker.pointee.best = point
        }
    } else {
        tracker.pointee.best = point
    }
    return 0
}
