/// What a text is embedded as: multilingual-e5 is trained with a "query: " or "passage: " prefix,
/// and a query is matched against passages.
public enum EmbeddingRole: Sendable {
    /// What a person typed into a search box.
    case query
    /// What is searched: a transaction's or a message's meaning document.
    case passage
}

/// Turns texts into unit-length vectors whose dot product says how close their meanings are.
/// `EmbeddingModel` is the real one; the ledger takes any (its tests give it the real one too).
public protocol TextEmbedder: Sendable {
    /// The vectors' length (384 for multilingual-e5-small).
    var dimension: Int { get }
    /// What made the vectors: stored with them, so that vectors of another model are made again.
    var identity: String { get }
    /// One L2-normalized vector of `dimension` floats per text, in order.
    func embed(_ texts: [String], as role: EmbeddingRole) throws -> [[Float]]
}
