import SpendlexEngine

/// The messages of a file as the playground shows them: the same readers as `parse` (mbox,
/// Maildir files, .eml, SMS backups, JSON Lines), e-mails decoded to their text as a batch run
/// decodes them (the plain part, else the HTML part's text). Records that are no message
/// (sent SMS, malformed ones) are left out.
package enum InputSamples {
    /// One message's text, sender and subject.
    package struct Sample: Sendable, Equatable {
        package var text: String
        package var sender: String?
        package var subject: String?
    }

    /// The first `limit` messages of the file at `path`, how many it holds, and whether there were more.
    package static func read(path: String, limit: Int) throws(InputError) -> (samples: [Sample], count: Int, truncated: Bool) {
        let reader = try InputReader(path: path)
        var samples: [Sample] = []
        var count = 0
        for item in reader {
            let sample: Sample?
            switch item {
            case .email(let email): sample = Self.sample(of: email)
            case .text(let sms): sample = Sample(text: sms.text, sender: sms.sender, subject: nil)
            case .jsonLine(let bytes, let file, let line):
                switch JSONLinesMessageReader.record(from: bytes[...], file: file, line: line) {
                case .message(let message): sample = Sample(text: message.text, sender: message.sender, subject: message.subject)
                case .email(let email): sample = Self.sample(of: email)
                case .malformed: sample = nil
                }
            case .skipped, .malformed: sample = nil
            }
            guard let sample else { continue }
            count += 1
            if samples.count < limit { samples.append(sample) }
        }
        return (samples, count, count > samples.count)
    }

    private static func sample(of email: RawEmail) -> Sample? {
        guard let headers = try? MIMEDecoder.headers(of: email.bytes) else { return nil }
        // The plain part, else the HTML part's text (what `EmailBody.text` gives).
        let decoded = MIMEDecoder.bodyPreferringPlain(of: email.bytes, headers: headers, maxDepth: MIMEDecoder.defaultMaxDepth)
        return Sample(text: decoded.body.text, sender: headers.fromAddress, subject: headers.subject)
    }
}
