import SpendlexEngine
import SpendlexRules

/// How a message posted to the HTTP service (`MessageInput`, decoded from its JSON body) becomes a
/// `Message` and its outcome: an SMS or notification as given, a raw email through the MIME decoder
/// and `EmailParsing`, as a batch run reads one. Here, not in the service, so that the fuzzer
/// reaches it without an HTTP server.
package enum PostedMessage {
    /// Why a posted message cannot be read: the service answers 422 with its code.
    package enum Problem: Error, Equatable {
        /// The fields do not make a message (`invalid_message`).
        case invalidMessage(String)
        /// `email` is not an email (`invalid_email`).
        case invalidEmail(String)
    }

    /// The message `input` gives and the outcome of `worker` on it; multiparts nested deeper than
    /// `maxMIMEDepth` are skipped.
    package static func read(_ input: MessageInput, worker: RuleEngine.Worker,
                             maxMIMEDepth: Int = MIMEDecoder.defaultMaxDepth) throws(Problem) -> (Message, ParseOutcome) {
        if let problem = input.problem() { throw .invalidMessage(problem) }
        if let raw = input.email { return try readEmail(raw, input: input, worker: worker, maxMIMEDepth: maxMIMEDepth) }
        let text = input.text ?? ""
        let channel = input.channel.flatMap(MessageChannel.init(rawValue:)) ?? .sms
        let id = input.id ?? Message.textID(sender: input.sender, text: text)
        let message = Message(id: id, text: HTMLText.readable(text), sender: input.sender, subject: input.subject,
                              receivedAt: input.receivedAt.flatMap(parseTimestamp), channel: channel)
        return (message, worker.parse(message))
    }

    /// A raw email: its headers give the sender, subject, date and id; its text is parsed as a
    /// batch run parses it (`EmailParsing`: the plain part, then the HTML part's when needed).
    private static func readEmail(_ raw: String, input: MessageInput, worker: RuleEngine.Worker,
                                  maxMIMEDepth: Int) throws(Problem) -> (Message, ParseOutcome) {
        guard MessageInput.startsWithHeader(raw) else {
            throw .invalidEmail("not an email: it must start with a header field (Name: value), after an optional mbox From line")
        }
        let bytes = Array(raw.utf8)
        let headers: EmailHeaders
        do { headers = try MIMEDecoder.headers(of: bytes) } catch {
            throw .invalidEmail("not an email: \(error)")
        }
        let decoded = MIMEDecoder.bodyPreferringPlain(of: bytes, headers: headers, maxDepth: maxMIMEDepth)
        var message = Message(id: input.id ?? headers.messageID ?? "sha:" + StableHash.hex(bytes), text: decoded.body.text,
                              sender: headers.fromAddress ?? input.sender, subject: headers.subject,
                              receivedAt: headers.date ?? input.receivedAt.flatMap(parseTimestamp), channel: .email,
                              textIsComposed: true)
        let read = EmailParsing.parse(bytes, headers: headers, decoded: decoded, message: &message,
                                      maxMIMEDepth: maxMIMEDepth) { worker.parse($0) }
        return (message, read.outcome)
    }
}
