/// Failures to open or recognise an input; the caller reports them and exits 65.
public enum InputError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The path could not be opened or read (missing, permissions, I/O error).
    case unreadable(path: String, reason: String)
    /// The content is not in a format the readers understand (empty, binary, unknown text), or
    /// does not fit the format that was asked for.
    case unknownFormat(path: String, reason: String)

    /// One line for the user: what went wrong with which path.
    public var description: String {
        switch self {
        case .unreadable(let path, let reason): "cannot read \(path): \(reason)"
        case .unknownFormat(let path, let reason): "cannot read \(path) as messages: \(reason)"
        }
    }
}
