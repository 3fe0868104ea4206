internal import CPCRE2

/// Compile-time options for a ``Pattern``.
///
/// Each option's `rawValue` bit is the matching PCRE2 compile option bit
/// (for example ``caseless`` is `PCRE2_CASELESS`). Every pattern is also
/// compiled with `PCRE2_UTF | PCRE2_UCP | PCRE2_MATCH_INVALID_UTF`; those are
/// always on and are not part of this set.
public struct PatternOptions: OptionSet, Sendable, Hashable {
    /// The PCRE2 compile option bits (`PCRE2_CASELESS`, `PCRE2_MULTILINE`, ...).
    public let rawValue: UInt32

    /// Creates options from PCRE2 compile option bits.
    public init(rawValue: UInt32) {
        self.rawValue = rawValue
    }

    /// Case-insensitive matching, Unicode-aware (`PCRE2_CASELESS`, like `(?i)`).
    public static let caseless = PatternOptions(rawValue: PCRE2_CASELESS)

    /// `^` and `$` also match at internal line breaks (`PCRE2_MULTILINE`, like `(?m)`).
    public static let multiline = PatternOptions(rawValue: PCRE2_MULTILINE)

    /// `.` also matches line breaks (`PCRE2_DOTALL`, like `(?s)`).
    public static let dotAll = PatternOptions(rawValue: PCRE2_DOTALL)

    /// Several groups may have the same name (`PCRE2_DUPNAMES`, like `(?J)`), for alternatives
    /// that capture the same thing; the name then reads the first group that matched.
    public static let duplicateNames = PatternOptions(rawValue: PCRE2_DUPNAMES)

    /// Unescaped whitespace in the pattern is ignored and `#` starts a comment
    /// (`PCRE2_EXTENDED`, like `(?x)`).
    public static let extended = PatternOptions(rawValue: PCRE2_EXTENDED)

    /// A callout before every item of the pattern (`PCRE2_AUTO_CALLOUT`): how a debugger sees
    /// where matching got to (``Pattern/furthestReach(in:scratch:)``). Slow; for tools only.
    public static let autoCallout = PatternOptions(rawValue: PCRE2_AUTO_CALLOUT)

    /// No start-of-match shortcuts (`PCRE2_NO_START_OPTIMIZE`): without it, a text that lacks a
    /// literal the pattern requires is failed before any attempt, and a debugger sees nothing.
    public static let noStartOptimize = PatternOptions(rawValue: PCRE2_NO_START_OPTIMIZE)
}
