/// How serious a diagnostic is: errors make `spendlex check` fail, warnings do not.
public enum Severity: String, Sendable, Hashable, Comparable {
    case warning
    case error

    public static func < (lhs: Severity, rhs: Severity) -> Bool {
        lhs == .warning && rhs == .error
    }
}

/// A stable identifier of a kind of diagnostic, such as `grammar.unknown`.
/// Tests and tools match on it; the wording of messages may change, ids do not.
public struct DiagnosticID: Hashable, Sendable, CustomStringConvertible {
    /// The area the diagnostic belongs to: `yaml`, `rule`, `pattern`, `grammar`, `example`, ...
    public let domain: String
    /// The kind within the domain.
    public let name: String

    /// Creates an id `domain.name`.
    public init(_ domain: String, _ name: String) {
        self.domain = domain
        self.name = name
    }

    /// `domain.name`.
    public var description: String { "\(domain).\(name)" }
}

/// One problem found in the user's rule files or examples, with where it is.
/// Diagnostics are collected, never thrown: a run reports all of them at once.
public struct Diagnostic: Hashable, Sendable, CustomStringConvertible {
    /// A secondary remark attached to a diagnostic, optionally pointing elsewhere.
    public struct Note: Hashable, Sendable {
        /// The remark.
        public let message: String
        /// Where it points, if anywhere.
        public let location: SourceLocation?

        /// Creates a note.
        public init(_ message: String, at location: SourceLocation? = nil) {
            self.message = message
            self.location = location
        }
    }

    /// The stable id.
    public let id: DiagnosticID
    /// Error or warning.
    public let severity: Severity
    /// Where the fault is.
    public let location: SourceLocation
    /// What is wrong, in one line.
    public let message: String
    /// Further remarks: a suggestion, the other place involved.
    public let notes: [Note]

    /// Creates a diagnostic.
    public init(_ id: DiagnosticID, _ severity: Severity, at location: SourceLocation,
                _ message: String, notes: [Note] = []) {
        self.id = id
        self.severity = severity
        self.location = location
        self.message = message
        self.notes = notes
    }

    /// `path:line:column: severity: message [id]`.
    public var description: String {
        "\(location): \(severity.rawValue): \(message) [\(id)]"
    }
}

extension Array where Element == Diagnostic {
    /// Whether any diagnostic is an error.
    public var containsErrors: Bool { contains { $0.severity == .error } }

    /// Sorted by file, line and column, then id, so output is deterministic.
    public func sortedByLocation() -> [Diagnostic] {
        sorted { ($0.location, $0.id.description) < ($1.location, $1.id.description) }
    }
}
