internal import CPCRE2

/// Per-thread scratch space: match data, match context with limits, JIT stack.
/// Not Sendable; one per worker thread.
///
/// A scratch can be used with any number of ``Pattern``s, one match at a time.
/// Its match data block is reused across calls and grown (once) when a pattern
/// has more capture groups than the block has room for, so steady-state
/// matching does not allocate. Everything is freed when the scratch is released.
public final class MatchScratch {
    /// Maximum number of internal backtracking steps per match call (`pcre2_set_match_limit`).
    /// Honoured by the JIT and the interpreter; exceeding it throws ``MatchError/matchLimit``.
    public let matchLimit: UInt32

    /// Maximum backtracking depth, in nested backtracking frames, for the interpreter
    /// (`pcre2_set_depth_limit`). Ignored by the JIT. Exceeding it throws ``MatchError/depthLimit``.
    public let depthLimit: UInt32

    /// Maximum heap memory for the interpreter's backtracking frames, in KiB (1024 bytes)
    /// (`pcre2_set_heap_limit`). Ignored by the JIT. Exceeding it throws ``MatchError/depthLimit``.
    public let heapLimitKiB: UInt32

    /// Maximum size of the JIT stack, in bytes. The stack starts at 32 KiB (or this
    /// value if smaller) and grows up to this. Exceeding it throws ``MatchError/jitStackLimit``.
    public let jitStackMaxBytes: Int

    /// The `pcre2_match_context_8` carrying the limits and the JIT stack.
    let matchContext: OpaquePointer
    /// The `pcre2_jit_stack_8`; nil when it could not be created (JIT then uses
    /// PCRE2's 32 KiB default on the machine stack).
    private let jitStack: OpaquePointer?
    /// The reusable `pcre2_match_data_8`.
    private(set) var matchData: OpaquePointer
    /// How many capture ranges (group 0 plus capture groups) the reusable match
    /// data block currently has room for. Starts at 16 and grows, never shrinks,
    /// when `firstMatch` is called with a pattern that has more groups.
    /// Exposed for diagnostics and tests.
    public private(set) var ovectorPairCapacity: Int

    /// The ovector pair count a fresh scratch starts with (group 0 plus 15 groups).
    static let initialOvectorPairs = 16

    /// Creates scratch space with the given limits.
    ///
    /// - Parameters:
    ///   - matchLimit: backtracking steps per match call (JIT and interpreter).
    ///   - depthLimit: interpreter backtracking depth, in frames.
    ///   - heapLimitKiB: interpreter backtracking heap, in KiB (1024 bytes).
    ///   - jitStackMaxBytes: maximum JIT stack size, in bytes.
    public init(
        matchLimit: UInt32 = 1_000_000,
        depthLimit: UInt32 = 10_000,
        heapLimitKiB: UInt32 = 20_000,
        jitStackMaxBytes: Int = 1 << 20
    ) {
        precondition(jitStackMaxBytes > 0, "jitStackMaxBytes must be positive")
        self.matchLimit = matchLimit
        self.depthLimit = depthLimit
        self.heapLimitKiB = heapLimitKiB
        self.jitStackMaxBytes = jitStackMaxBytes

        guard let context = pcre2_match_context_create_8(nil) else {
            fatalError("PCRE2: out of memory creating a match context")
        }
        pcre2_set_match_limit_8(context, matchLimit)
        pcre2_set_depth_limit_8(context, depthLimit)
        pcre2_set_heap_limit_8(context, heapLimitKiB)
        matchContext = context

        let start = min(32 * 1024, jitStackMaxBytes)
        jitStack = pcre2_jit_stack_create_8(start, jitStackMaxBytes, nil)
        if let jitStack {
            // No callback: the data argument is the JIT stack itself.
            pcre2_jit_stack_assign_8(context, nil, UnsafeMutableRawPointer(jitStack))
        }

        guard let data = pcre2_match_data_create_8(UInt32(Self.initialOvectorPairs), nil) else {
            fatalError("PCRE2: out of memory creating match data")
        }
        matchData = data
        ovectorPairCapacity = Self.initialOvectorPairs
    }

    deinit {
        pcre2_match_data_free_8(matchData)
        if let jitStack { pcre2_jit_stack_free_8(jitStack) }
        pcre2_match_context_free_8(matchContext)
    }

    /// How many ovector pairs the last ``Pattern/firstRange(in:from:upTo:scratch:)`` set (one
    /// more than its highest set group); 0 after no match.
    var lastPairs = 0

    /// Group `group`'s range (UTF-8 byte offsets) in the match the last
    /// ``Pattern/firstRange(in:from:upTo:scratch:)`` with this scratch found (0: the whole
    /// match); nil when that group did not participate, or there was no match.
    public func lastGroup(_ group: Int) -> Range<Int>? {
        guard group >= 0, group < lastPairs else { return nil }
        let ovector = pcre2_get_ovector_pointer_8(matchData)!
        let start = ovector[2 * group]
        let end = ovector[2 * group + 1]
        // size_t imports as Int, so PCRE2_UNSET (SIZE_MAX) reads as -1 here.
        guard start >= 0, end >= 0 else { return nil }
        // \K can in principle put the start after the end; never build an invalid Range.
        return min(start, end)..<max(start, end)
    }

    /// The match data block, grown first if it has fewer than `pairs` ovector pairs.
    /// Allocates only when growing.
    @inline(__always)
    func matchData(atLeast pairs: Int) -> OpaquePointer {
        if pairs > ovectorPairCapacity { grow(to: pairs) }
        return matchData
    }

    private func grow(to pairs: Int) {
        // PCRE2 caps ovector pairs at 65535; a pattern cannot have more groups than that.
        let newPairs = min(max(pairs, ovectorPairCapacity * 2), Int(UInt16.max))
        guard let data = pcre2_match_data_create_8(UInt32(newPairs), nil) else {
            fatalError("PCRE2: out of memory growing match data to \(newPairs) pairs")
        }
        pcre2_match_data_free_8(matchData)
        matchData = data
        ovectorPairCapacity = newPairs
    }
}

/// A scratch holds mutable C state used during a match; it must stay on one thread.
@available(*, unavailable)
extension MatchScratch: Sendable {}
