import SpendlexMail

/// Several messages at once.
struct MessageBatchInput: Decodable, Sendable {
    /// The messages, parsed and stored in order.
    var messages: [MessageInput]
}
