/// Writes emails as mbox records (mboxo): a From_ line, the headers gen_mbox.py writes
/// (Return-Path, two Received, DKIM-Signature, Authentication-Results, From, To, Subject,
/// Date, Message-ID ending in `.<ordinal>@domain`, MIME-Version), the body, `>From `
/// escaping of body lines starting with "From ", and the blank line before the next record.
public struct MailRenderer {
    public init() {}

    /// Writes one mbox record. `date` is the arrival time (UTC).
    public func write(_ draft: MailDraft, ordinal: Int, date: CivilTime, random: inout CorpusRandom, to sink: ByteSink) {
        sink.write("From \(draft.address) \(date.asctime)\n")
        var message = headers(draft, ordinal: ordinal, date: date, random: &random)
        switch draft.body {
        case .single(let part):
            let (header, body) = part.encoded()
            message += Array(header.utf8)
            message.append(UInt8(ascii: "\n"))
            message += body
        case .alternative(let parts):
            message += alternative(parts, ordinal: ordinal, random: &random)
        case .mixed(let text, let attachments):
            let boundary = "----=_Mixed_\(random.int(in: 1_000_000...10_000_000))_\(ordinal)"
            message += Array("Content-Type: multipart/mixed; boundary=\"\(boundary)\"\n\nThis is a multi-part message in MIME format.\n\n--\(boundary)\n".utf8)
            if text.count == 1 {
                let (header, body) = text[0].encoded()
                message += Array(header.utf8)
                message.append(UInt8(ascii: "\n"))
                message += body
            } else {
                message += alternative(text, ordinal: ordinal, random: &random)
            }
            if message.last != UInt8(ascii: "\n") { message.append(UInt8(ascii: "\n")) }
            Self.writeEscaped(message, to: sink)
            for attachment in attachments {
                AttachmentWriter.write(attachment, boundary: boundary, random: &random, to: sink)
            }
            sink.write("\n--\(boundary)--\n\n")
            return
        }
        if message.last != UInt8(ascii: "\n") { message.append(UInt8(ascii: "\n")) }
        message.append(UInt8(ascii: "\n"))
        Self.writeEscaped(message, to: sink)
    }

    /// The header block, up to and including MIME-Version.
    private func headers(_ draft: MailDraft, ordinal: Int, date: CivilTime, random: inout CorpusRandom) -> [UInt8] {
        let to = "\(random.pick(MailVocabulary.firstNames).lowercased()).\(random.pick(MailVocabulary.lastNames).lowercased())@example.org"
        let domain = draft.address.split(separator: "@").last.map(String.init) ?? "example.com"
        let subject = TextEscaping.encodedWords(draft.subject, qEncoding: random.chance(0.3))
        // A name outside ASCII as RFC 2047 words, as mail clients write it; 8-bit header bytes
        // would stop Python's `email` (and so the Python baseline).
        let displayName = draft.senderName.utf8.allSatisfy { $0 < 0x80 }
            ? "\"\(draft.senderName)\"" : TextEscaping.encodedWords(draft.senderName, qEncoding: true)
        var dkimBytes = [UInt8](repeating: 0, count: 192)
        dkimBytes.withUnsafeMutableBytes { random.fill($0) }
        let dkim = Base64Lines.encodeUnwrapped(dkimBytes)
        let dkimA = dkim.prefix(44), dkimB = dkim.dropFirst(44).prefix(76), dkimC = dkim.dropFirst(120)
        let text = """
            Return-Path: <bounce-\(random.int(in: 1...1_000_000_000))@\(domain)>
            Received: from mail\(random.int(in: 1...99)).\(domain) (mail\(random.int(in: 1...99)).\(domain) [203.0.113.\(random.int(in: 1...254))])
                    by mx.example.org with ESMTPS id \(random.int(in: 1_000_000_000...10_000_000_000))
                    for <\(to)>; \(date.rfc5322) +0000
            Received: from localhost (localhost [127.0.0.1]) by mail.\(domain) with SMTP id \(random.int(in: 1_000_000_000...10_000_000_000));
                    \(date.rfc5322) +0530
            DKIM-Signature: v=1; a=rsa-sha256; c=relaxed/relaxed; d=\(domain); s=s1; h=from:to:subject:date:message-id;
                    bh=\(dkimA);
                    b=\(dkimB)
                     \(dkimC)
            Authentication-Results: mx.example.org; dkim=pass header.d=\(domain); spf=pass smtp.mailfrom=\(domain)
            From: \(displayName) <\(draft.address)>
            To: \(to)
            Subject: \(subject)
            Date: \(date.rfc5322) +0000
            Message-ID: <\(random.int(in: 1_000_000_000_000...10_000_000_000_000)).\(ordinal)@\(domain)>
            MIME-Version: 1.0

            """
        return Array(text.utf8)
    }

    /// A multipart/alternative entity (its Content-Type header, preamble, parts, closing boundary).
    private func alternative(_ parts: [MailPart], ordinal: Int, random: inout CorpusRandom) -> [UInt8] {
        let boundary = "----=_Part_\(random.int(in: 1_000_000...10_000_000))_\(ordinal)"
        var out = Array("Content-Type: multipart/alternative; boundary=\"\(boundary)\"\n\nThis is a multi-part message in MIME format.\n".utf8)
        for part in parts {
            let (header, body) = part.encoded()
            out += Array("\n--\(boundary)\n\(header)\n".utf8)
            out += body
        }
        out += Array("\n--\(boundary)--\n".utf8)
        return out
    }

    /// Writes the bytes with mboxo escaping: a `>` before every line that starts with "From ".
    static func writeEscaped(_ bytes: [UInt8], to sink: ByteSink) {
        bytes.withUnsafeBufferPointer { buffer in
            var start = 0
            var lineStart = 0
            let count = buffer.count
            while lineStart < count {
                if count - lineStart >= 5, buffer[lineStart] == UInt8(ascii: "F"), buffer[lineStart + 1] == UInt8(ascii: "r"),
                   buffer[lineStart + 2] == UInt8(ascii: "o"), buffer[lineStart + 3] == UInt8(ascii: "m"),
                   buffer[lineStart + 4] == UInt8(ascii: " ") {
                    sink.write(UnsafeBufferPointer(rebasing: buffer[start..<lineStart]))
                    sink.write(">")
                    start = lineStart
                }
                guard let newline = buffer[lineStart...].firstIndex(of: UInt8(ascii: "\n")) else { break }
                lineStart = newline + 1
            }
            sink.write(UnsafeBufferPointer(rebasing: buffer[start...]))
        }
    }
}
