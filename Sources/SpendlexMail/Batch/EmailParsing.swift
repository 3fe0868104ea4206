import SpendlexEngine

/// How an email's text is parsed, by batch runs and by the HTTP service alike: the text/plain
/// part first (the HTML part is not even converted while there is plain text), then the HTML
/// part's text when the plain part is a stub that does not parse ("view this mail in a
/// browser"), or is read only by a fallback: then a bank's own parser reading the HTML wins.
package enum EmailParsing {
    /// `message` is the email with its plain text (`decoded.body.text`), left as parsed (with the
    /// HTML's text when that was what was read, or when neither part parsed): changed in place,
    /// not copied in and out, for every email of a batch. `parse` parses a message, routed as the
    /// caller decides. Returns the outcome and the body (with its HTML part when it had to be converted).
    package static func parse(_ bytes: [UInt8], headers: EmailHeaders, decoded: (body: EmailBody, htmlSkipped: Bool),
                              message: inout Message, maxMIMEDepth: Int = MIMEDecoder.defaultMaxDepth,
                              parse: (Message) -> ParseOutcome)
        -> (outcome: ParseOutcome, body: EmailBody)
    {
        var body = decoded.body
        var outcome = parse(message)
        let onlyFallback = outcome.transaction?.confidenceParts.contains(.fallbackParser) == true
        var unmatched = false
        if case .unmatched = outcome { unmatched = true }
        guard unmatched || onlyFallback else { return (outcome, body) }
        if decoded.htmlSkipped { body = MIMEDecoder.body(of: bytes, headers: headers, maxDepth: maxMIMEDepth) }
        let plain = message.text
        if let html = body.html, html != plain {
            message.text = html
            let second = parse(message)
            if let transaction = second.transaction,
               !onlyFallback || !transaction.confidenceParts.contains(.fallbackParser) {
                outcome = second
            } else if onlyFallback {
                message.text = plain  // the transaction kept was read from the plain text
            }
        }
        return (outcome, body)
    }
}
