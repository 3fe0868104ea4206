import Foundation

/// A person's settings (`spendlex.yaml` beside their ledger). Today: the optional language model
/// that categorizes merchants neither the decision tables nor the learned model decide. Off
/// unless written here: nothing leaves the machine otherwise.
public struct PersonConfig: Sendable {
    /// An OpenAI-compatible chat completions endpoint and the model to ask.
    public struct LanguageModel: Sendable {
        /// The chat completions URL (`http://localhost:8080/v1/chat/completions`).
        public var url: String
        public var model: String
        /// The name of the environment variable that holds the API key (the key itself is never
        /// written in the file); nil: no key is sent.
        public var apiKeyVariable: String?
        /// Merchants per request.
        public var batchSize: Int
        /// Seconds a request may take.
        public var timeout: Int
    }

    public var languageModel: LanguageModel?

    public init(languageModel: LanguageModel? = nil) {
        self.languageModel = languageModel
    }
}
