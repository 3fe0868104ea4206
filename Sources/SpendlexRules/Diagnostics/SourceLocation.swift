/// A place in a rule file: the file's path as given, a 1-based line and a 1-based column
/// counted in Unicode scalars (as Yams counts them).
public struct SourceLocation: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The file's path as the user named it (relative paths stay relative).
    public let file: String
    /// 1-based line number.
    public let line: Int
    /// 1-based column, in Unicode scalars.
    public let column: Int

    /// Creates a location.
    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    /// `path:line:column`, the form editors and CI annotations understand.
    public var description: String { "\(file):\(line):\(column)" }

    public static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        (lhs.file, lhs.line, lhs.column) < (rhs.file, rhs.line, rhs.column)
    }
}

/// A value read from a rule file together with where it was written.
public struct Located<Value: Sendable>: Sendable {
    /// The value.
    public let value: Value
    /// Where the value starts in its file.
    public let location: SourceLocation

    /// Creates a located value.
    public init(_ value: Value, at location: SourceLocation) {
        self.value = value
        self.location = location
    }
}

extension Located: Equatable where Value: Equatable {}
extension Located: Hashable where Value: Hashable {}
