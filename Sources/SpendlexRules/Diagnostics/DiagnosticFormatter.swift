/// Renders diagnostics the way compilers do: `path:line:column: severity: message [id]`,
/// then the source line and a caret under the fault, then notes.
public struct DiagnosticFormatter: Sendable {
    /// The texts of the files, to quote lines from.
    public let sources: [String: SourceText]

    /// Creates a formatter quoting from these files.
    public init(sources: [String: SourceText]) {
        self.sources = sources
    }

    /// One diagnostic with its source line, caret and notes; ends without a newline.
    public func format(_ diagnostic: Diagnostic) -> String {
        var lines = [diagnostic.description]
        let location = diagnostic.location
        if let line = sources[location.file]?.line(location.line) {
            let text = String(line).replacingTabs()
            lines.append("    " + text)
            let caretColumn = min(max(location.column - 1, 0), text.unicodeScalars.count)
            lines.append("    " + String(repeating: " ", count: caretColumn) + "^")
        }
        for note in diagnostic.notes {
            if let at = note.location {
                lines.append("  \(at): note: \(note.message)")
            } else {
                lines.append("  note: \(note.message)")
            }
        }
        return lines.joined(separator: "\n")
    }

    /// All diagnostics, each followed by a newline, then a count line when there are any.
    public func format(_ diagnostics: [Diagnostic]) -> String {
        guard !diagnostics.isEmpty else { return "" }
        var out = diagnostics.map { format($0) + "\n" }.joined()
        let errors = diagnostics.filter { $0.severity == .error }.count
        let warnings = diagnostics.count - errors
        out += "\(errors) error\(errors == 1 ? "" : "s"), \(warnings) warning\(warnings == 1 ? "" : "s")\n"
        return out
    }
}

extension String {
    /// Tabs as single spaces, so that a caret counted in characters lines up.
    fileprivate func replacingTabs() -> String {
        String(unicodeScalars.map { $0 == "\t" ? " " : Character($0) })
    }
}
