/// One response from an IMAP server (RFC 9051 / 3501 section 7): untagged (`* …`), a
/// continuation request (`+ …`), or the tagged completion of a command (`a1 OK …`).
///
/// A response may carry literals (`{123}` then 123 bytes): a message's body in a FETCH. The
/// text keeps each literal's `{n}` marker where it stood, and the literals' bytes come apart,
/// in order, so that a body is never scanned as text.
public struct IMAPResponse: Sendable, Equatable {
    /// Which of the three kinds of response.
    public enum Kind: Sendable, Equatable {
        /// `* …`: data, or a status not tied to a command.
        case untagged
        /// `+ …`: the server waits for more of the command (a literal, a SASL step).
        case continuation
        /// `TAG OK|NO|BAD …`: the end of the command sent with that tag.
        case tagged(String)
    }

    /// Which kind it is (and the tag of a tagged one).
    public var kind: Kind
    /// The response's lines after the tag (or `*`, `+`), joined with the line breaks removed.
    public var text: String
    /// The literals, in order.
    public var literals: [[UInt8]]

    /// A response (the parser makes them; tests may too).
    public init(kind: Kind, text: String, literals: [[UInt8]] = []) {
        self.kind = kind
        self.text = text
        self.literals = literals
    }

    /// A tagged response's status word: `OK`, `NO` or `BAD` (upper-cased); the first word of other responses.
    public var status: String {
        String(text.prefix { $0 != " " }).uppercased()
    }

    /// The text after the status word (`[AUTHENTICATIONFAILED] Authentication failed.`).
    public var statusText: String {
        guard let space = text.firstIndex(of: " ") else { return "" }
        return String(text[text.index(after: space)...])
    }

    /// A response code's number: `[UIDVALIDITY 17]` for `"UIDVALIDITY"`, in an `OK` response.
    public func code(_ name: String) -> UInt32? {
        guard let open = text.range(of: "[" + name + " ", options: .caseInsensitive) else { return nil }
        return UInt32(text[open.upperBound...].prefix { $0.isASCII && $0.isNumber })
    }
}

/// Splits the bytes an IMAP server sends into responses, however the network cut them.
///
/// Hand-written rather than a library's: the one Swift IMAP codec (swift-nio-imap) is not among
/// this machine's packages, and the part a fetching client needs is small — lines, literals,
/// tags. Bounded: a line longer than `maxLine` or a literal longer than `maxLiteral` is an error
/// (a broken or hostile server), never a memory blow-up.
public struct IMAPResponseParser: Sendable {
    /// The longest line read, in bytes (without its literals).
    public let maxLine: Int
    /// The largest literal read, in bytes (a message's size).
    public let maxLiteral: Int

    private var buffer: [UInt8] = []
    private var position = 0
    private var pendingLiteral: Int?
    private var segments: [String] = []
    private var literals: [[UInt8]] = []
    private var responseBytes = 0

    /// A parser with these limits (1 MiB lines, 256 MiB literals by default).
    public init(maxLine: Int = 1 << 20, maxLiteral: Int = 256 << 20) {
        self.maxLine = maxLine
        self.maxLiteral = maxLiteral
    }

    /// Adds bytes read from the connection.
    public mutating func append<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        // Drop what was consumed before growing, so the buffer holds about one response.
        if position > 0 && (position >= 1 << 16 || position == buffer.count) {
            buffer.removeFirst(position)
            position = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// The next whole response, or nil until more bytes arrive.
    public mutating func next() throws(IMAPError) -> IMAPResponse? {
        while true {
            if let length = pendingLiteral {
                guard buffer.count - position >= length else { return nil }
                literals.append(Array(buffer[position..<position + length]))
                position += length
                pendingLiteral = nil
                continue
            }
            guard let newline = buffer[position...].firstIndex(of: UInt8(ascii: "\n")) else {
                if buffer.count - position > maxLine {
                    throw .protocolError("the server sent a line longer than \(maxLine) bytes")
                }
                return nil
            }
            var end = newline
            if end > position && buffer[end - 1] == UInt8(ascii: "\r") { end -= 1 }
            let line = buffer[position..<end]
            position = newline + 1
            if let length = Self.literalLength(at: line) {
                guard length <= maxLiteral else {
                    throw .protocolError("the server announced a literal of \(length) bytes (at most \(maxLiteral) are read)")
                }
                segments.append(String(decoding: line, as: UTF8.self))
                pendingLiteral = length
                continue
            }
            segments.append(String(decoding: line, as: UTF8.self))
            let response = try Self.response(from: segments.joined(), literals: literals)
            segments = []
            literals = []
            return response
        }
    }

    /// `{123}` or `{123+}` at the end of a line: the length of the literal that follows.
    static func literalLength(at line: ArraySlice<UInt8>) -> Int? {
        guard line.last == UInt8(ascii: "}"), let open = line.lastIndex(of: UInt8(ascii: "{")) else { return nil }
        var digits = line[(open + 1)..<(line.endIndex - 1)]
        if digits.last == UInt8(ascii: "+") { digits = digits.dropLast() }
        guard !digits.isEmpty, digits.count <= 12, digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return digits.reduce(0) { $0 * 10 + Int($1 - 0x30) }
    }

    private static func response(from text: String, literals: [[UInt8]]) throws(IMAPError) -> IMAPResponse {
        if text.hasPrefix("* ") {
            return IMAPResponse(kind: .untagged, text: String(text.dropFirst(2)), literals: literals)
        }
        if text == "+" || text.hasPrefix("+ ") {
            return IMAPResponse(kind: .continuation, text: String(text.dropFirst(2)), literals: literals)
        }
        guard let space = text.firstIndex(of: " "), space > text.startIndex else {
            throw .protocolError("the server sent a line that is not an IMAP response: \(text.prefix(80))")
        }
        return IMAPResponse(kind: .tagged(String(text[..<space])), text: String(text[text.index(after: space)...]),
                            literals: literals)
    }
}
