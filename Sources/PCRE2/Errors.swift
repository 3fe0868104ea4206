internal import CPCRE2

/// A compile failure: PCRE2's error code, its message, and the UTF-8 byte
/// offset in the pattern where PCRE2 stopped.
public struct PatternError: Error, Sendable, Equatable, CustomStringConvertible {
    /// PCRE2's compile error code (a positive number, e.g. 114 for a missing `)`).
    public let code: Int32

    /// PCRE2's own text for ``code``, from `pcre2_get_error_message_8`.
    public let message: String

    /// UTF-8 byte offset into the pattern source where PCRE2 detected the error.
    /// May equal the pattern's UTF-8 byte count when the error is at the end.
    public let offset: Int

    /// Creates a pattern error from its parts.
    public init(code: Int32, message: String, offset: Int) {
        self.code = code
        self.message = message
        self.offset = offset
    }

    /// A one-line rendering: `"<message> (PCRE2 error <code> at UTF-8 byte offset <offset>)"`.
    public var description: String {
        "\(message) (PCRE2 error \(code) at UTF-8 byte offset \(offset))"
    }
}

/// A failure while matching (not "no match", which is `nil` / `false`).
public enum MatchError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The match limit of the ``MatchScratch`` was reached (`PCRE2_ERROR_MATCHLIMIT`).
    /// Usually catastrophic backtracking. Honoured by both the JIT and the interpreter.
    case matchLimit
    /// The interpreter's backtracking depth limit or heap limit was reached
    /// (`PCRE2_ERROR_DEPTHLIMIT` or `PCRE2_ERROR_HEAPLIMIT`). The JIT ignores both limits.
    case depthLimit
    /// The JIT stack of the ``MatchScratch`` was too small (`PCRE2_ERROR_JIT_STACKLIMIT`).
    case jitStackLimit
    /// Any other negative PCRE2 result, with PCRE2's error code and its own message
    /// (for example `PCRE2_ERROR_BADOFFSET`, -33, when the start offset is past the end).
    case other(code: Int32, message: String)

    /// A one-line rendering of the error.
    public var description: String {
        switch self {
        case .matchLimit: "match limit exceeded"
        case .depthLimit: "depth or heap limit exceeded"
        case .jitStackLimit: "JIT stack limit exceeded"
        case let .other(code, message): "\(message) (PCRE2 error \(code))"
        }
    }

    /// Maps a negative PCRE2 match result (other than `PCRE2_ERROR_NOMATCH`) to a `MatchError`.
    init(pcre2Code code: Int32) {
        switch code {
        case PCRE2_ERROR_MATCHLIMIT: self = .matchLimit
        case PCRE2_ERROR_DEPTHLIMIT, PCRE2_ERROR_HEAPLIMIT: self = .depthLimit
        case PCRE2_ERROR_JIT_STACKLIMIT: self = .jitStackLimit
        default: self = .other(code: code, message: pcre2ErrorMessage(code))
        }
    }
}

/// PCRE2's message text for any PCRE2 error code (compile or match).
/// Allocates; only called on error paths.
func pcre2ErrorMessage(_ code: Int32) -> String {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 256) { buffer in
        let length = pcre2_get_error_message_8(code, buffer.baseAddress, buffer.count)
        guard length >= 0 else { return "unknown PCRE2 error \(code)" }
        return String(decoding: UnsafeBufferPointer(rebasing: buffer[..<Int(length)]), as: UTF8.self)
    }
}
