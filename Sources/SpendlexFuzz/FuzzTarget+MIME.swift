@testable import SpendlexMail

extension FuzzTarget {
    /// Headers, every decoded header value, the body both ways, and the HTML converter on the
    /// raw bytes. `bodyPreferringPlain` must agree with `body` as its documentation says.
    static func mime(_ bytes: [UInt8]) {
        _ = HTMLText.text(fromHTML: bytes)
        guard let headers = try? MIMEDecoder.headers(of: bytes) else { return }
        _ = headers.fields
        _ = headers.subject
        _ = headers.messageID
        _ = headers.fromAddress
        _ = headers.date
        _ = headers.fields(named: "Received")
        _ = headers.field("content-type")
        let full = MIMEDecoder.body(of: bytes, headers: headers)
        _ = full.text
        let (preferring, htmlSkipped) = MIMEDecoder.bodyPreferringPlain(of: bytes, headers: headers)
        FuzzCheck.expect(preferring.plain == full.plain, "bodyPreferringPlain's plain text differs from body's")
        if !htmlSkipped {
            FuzzCheck.expect(preferring.html == full.html, "bodyPreferringPlain's HTML differs from body's")
            FuzzCheck.expect(preferring.problems == full.problems, "bodyPreferringPlain's problems differ from body's")
        } else {
            FuzzCheck.expect(preferring.html == nil, "skipped HTML is not nil")
        }
    }
}
