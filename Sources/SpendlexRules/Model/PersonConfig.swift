import Foundation

/// A person's settings (`spendlex.yaml` beside their ledger): the optional language model that
/// categorizes merchants neither the decision tables nor the learned model decide (off unless
/// written here: nothing leaves the machine otherwise), and the IMAP mailboxes to fetch from.
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

    /// An IMAP mailbox that `spendlex fetch` (without a URL) and the service's `POST /sync` and
    /// `serve --sync-every` fetch bank mail from.
    public struct Mailbox: Sendable, Equatable {
        /// `imaps://USER@HOST[:PORT]/MAILBOX` or `imap://…` (STARTTLS); never with a password.
        public var url: String
        /// The environment variable that holds the password; nil: `SPENDLEX_IMAP_PASSWORD`, then netrc.
        public var passwordVariable: String?
        /// A shell command that prints an OAuth 2 access token (XOAUTH2 instead of a password).
        public var oauth2Command: String?
        /// A PEM file of CA certificates to trust instead of the system's.
        public var caFile: String?
        /// Only mail that arrived on or after this day (YYYY-MM-DD).
        public var since: DateComponents?
        /// Every message, not only mail from the rules' bank senders.
        public var allSenders = false
        /// With imap://, go on in plain text when the server offers no STARTTLS.
        public var insecure = false

        /// A day written `YYYY-MM-DD` (`since:`, `fetch --since`), nil when it is not one.
        public static func day(_ text: String) -> DateComponents? {
            let parts = text.split(separator: "-", omittingEmptySubsequences: false)
            guard parts.count == 3, parts[0].count == 4, let year = Int(parts[0]), let month = Int(parts[1]),
                  let day = Int(parts[2]), (1...12).contains(month), (1...31).contains(day) else { return nil }
            return DateComponents(year: year, month: month, day: day)
        }

        /// A mailbox with every other setting at its default.
        public init(url: String) { self.url = url }
    }

    public var languageModel: LanguageModel?
    public var mailboxes: [Mailbox]

    public init(languageModel: LanguageModel? = nil, mailboxes: [Mailbox] = []) {
        self.languageModel = languageModel
        self.mailboxes = mailboxes
    }
}
