/// Why a message could not be read at all. Damage that can be survived (a missing
/// boundary, bad base64, a lying charset) is not an error: it lands in
/// ``EmailBody/problems`` instead.
public enum MIMEError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The first line is not a header field (binary junk, or not a mail at all).
    case noHeaders
    /// The input ended before anything could be read; the associated value says where.
    case truncated(String)
    /// Any other failure, with a reason for people.
    case other(String)

    /// A one-line reason for people.
    public var description: String {
        switch self {
        case .noHeaders: "the message does not start with a header field"
        case .truncated(let reason): "the message is truncated: \(reason)"
        case .other(let reason): reason
        }
    }
}
