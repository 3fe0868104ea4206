/// The text of one rule file, kept so that diagnostics can quote the faulty line
/// and so that offsets inside a YAML scalar can be mapped back to a line and column.
public final class SourceText: Sendable {
    /// The file's path as the user named it.
    public let path: String
    /// The whole text.
    public let text: String
    /// The lines, without their line breaks; index 0 is line 1.
    public let lines: [Substring]

    /// Wraps a file's text.
    public init(path: String, text: String) {
        self.path = path
        self.text = text
        self.lines = Self.lines(of: text)
    }

    /// The lines split at LF, a CR before it dropped, found in the UTF-8 bytes. Splitting the
    /// `String` at "\n" compared grapheme clusters, in which CRLF is one character: a CRLF
    /// file was one long line, and its diagnostics lost their source line and caret.
    private static func lines(of text: String) -> [Substring] {
        let utf8 = text.utf8
        var lines: [Substring] = []
        var start = utf8.startIndex
        while true {
            let newline = utf8[start...].firstIndex(of: UInt8(ascii: "\n"))
            var end = newline ?? utf8.endIndex
            if end > start, utf8[utf8.index(before: end)] == UInt8(ascii: "\r") { end = utf8.index(before: end) }
            lines.append(text[start..<end])
            guard let newline else { return lines }
            start = utf8.index(after: newline)
        }
    }

    /// The text of a 1-based line, or nil past the end.
    public func line(_ number: Int) -> Substring? {
        number >= 1 && number <= lines.count ? lines[number - 1] : nil
    }

    /// A location in this file.
    public func location(line: Int, column: Int) -> SourceLocation {
        SourceLocation(file: path, line: line, column: column)
    }
}

/// Where a scalar's value sits in its file and how it was written, so that a position
/// inside the value (a pattern's faulty character) can be traced back to the file.
public struct ScalarOrigin: Sendable {
    /// How the scalar was written in YAML.
    public enum Style: Sendable {
        case plain, singleQuoted, doubleQuoted, literal, folded
    }

    /// The file.
    public let source: SourceText
    /// Where the scalar starts: its first character, opening quote or block indicator.
    public let start: SourceLocation
    /// How it was written.
    public let style: Style

    /// Creates an origin.
    public init(source: SourceText, start: SourceLocation, style: Style) {
        self.source = source
        self.start = start
        self.style = style
    }

    /// The file location of the character at `utf8Offset` in `value` (the scalar's parsed value).
    ///
    /// The parsed value is the source text minus quotes, indentation and escapes, with
    /// folded line breaks turned into spaces; walking both in step recovers the position.
    /// Falls back to the scalar's start when the two cannot be aligned.
    public func location(ofUTF8Offset utf8Offset: Int, in value: String) -> SourceLocation {
        let utf8 = value.utf8
        let clamped = min(max(utf8Offset, 0), utf8.count)
        let prefixEnd = utf8.index(utf8.startIndex, offsetBy: clamped)
        let target = value.unicodeScalars[value.unicodeScalars.startIndex..<prefixEnd].count

        var line = start.line
        guard var text = source.line(line).map({ Array($0.unicodeScalars) }) else { return start }
        var index = start.column - 1

        func advanceLine() -> Bool {
            guard let next = source.line(line + 1) else { return false }
            line += 1
            text = Array(next.unicodeScalars)
            index = 0
            return true
        }

        switch style {
        case .literal, .folded:
            guard advanceLine() else { return start }
        case .singleQuoted, .doubleQuoted:
            index += 1
        case .plain:
            break
        }

        var consumed = 0
        for scalar in value.unicodeScalars {
            // Seek the source character that produced this value character.
            var found = SourceLocation(file: source.path, line: line, column: index + 1)
            while true {
                if index >= text.count {
                    // A line break in the source produced a newline or a folding space.
                    found = SourceLocation(file: source.path, line: line, column: index + 1)
                    guard advanceLine() else { return start }
                    if scalar == "\n" || scalar == " " { break }
                    continue
                }
                if text[index] == scalar {
                    found = SourceLocation(file: source.path, line: line, column: index + 1)
                    index += 1
                    break
                }
                index += 1
            }
            if consumed == target { return found }
            consumed += 1
        }
        // An offset at the very end of the value: just past its last character.
        return SourceLocation(file: source.path, line: line, column: index + 1)
    }
}

/// A pattern as written in a rule file: its text and where each character came from.
public struct PatternText: Sendable {
    /// The pattern as YAML parsed it.
    public let value: String
    /// Where it was written.
    public let origin: ScalarOrigin

    /// Creates a pattern text.
    public init(value: String, origin: ScalarOrigin) {
        self.value = value
        self.origin = origin
    }

    /// Where the pattern starts.
    public var location: SourceLocation { origin.start }

    /// The file location of the character at a UTF-8 byte offset into `value`.
    public func location(ofUTF8Offset offset: Int) -> SourceLocation {
        origin.location(ofUTF8Offset: offset, in: value)
    }
}
