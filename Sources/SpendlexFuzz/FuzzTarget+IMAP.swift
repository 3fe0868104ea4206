@testable import SpendlexIMAP

extension FuzzTarget {
    /// A server's bytes through `IMAPResponseParser`: whole, then cut at offsets taken from the
    /// input (as a network cuts them) must give the same responses, or the same first error,
    /// within small line and literal limits; each response is read as a FETCH and for its codes.
    static func imap(_ bytes: [UInt8]) {
        func responses(_ pieces: [ArraySlice<UInt8>]) -> ([IMAPResponse], IMAPError?) {
            var parser = IMAPResponseParser(maxLine: 4096, maxLiteral: 1 << 16)
            var found: [IMAPResponse] = []
            do {
                for piece in pieces {
                    parser.append(piece)
                    while let response = try parser.next() { found.append(response) }
                }
            } catch {
                return (found, error)
            }
            return (found, nil)
        }
        let whole = responses([bytes[...]])
        var pieces: [ArraySlice<UInt8>] = []
        var start = 0
        let step = Int(bytes.first ?? 7) % 13 + 1
        while start < bytes.count {
            let end = min(start + step, bytes.count)
            pieces.append(bytes[start..<end])
            start = end
        }
        let cut = responses(pieces)
        // A line too long is found when it is whole or when the buffer passes the limit: the
        // same error, though one of the two may have returned a response more before it.
        if whole.1 == nil && cut.1 == nil {
            FuzzCheck.expect(whole.0 == cut.0, "responses differ when the bytes arrive in pieces of \(step)")
        }
        for response in whole.0 {
            _ = IMAPSession.fetchedMessage(response)
            _ = response.code("UIDVALIDITY")
            _ = IMAPSession.capabilityCode(in: response.text)
        }
    }
}
