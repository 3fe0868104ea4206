import Foundation
import SpendlexEngine
import SpendlexRules

/// One item read from an input: a message, or a record that could not be read as one
/// (kept, with its place and reason, so that nothing is lost silently).
public enum InputRecord: Sendable {
    /// A message to parse.
    case message(Message)
    /// A whole e-mail (the line's `raw`), to be read as an e-mail from a mailbox is: headers
    /// routed, MIME decoded.
    case email(RawEmail)
    /// An unreadable record: where it is and why.
    case malformed(file: String, offset: Int, reason: String)
}

/// The JSON Lines message format: one object a line with `text` and optionally `id`,
/// `sender`, `subject`, `received_at` (ISO 8601) and `channel` (`email`, `sms`, `push`).
/// Other keys are ignored. A line without an id gets `FILE:LINE` as its id. A text that is an
/// HTML document (an e-mail body) is read as its readable text. Lines are split by
/// `InputReader`; this decodes one.
///
/// Instead of `text`, `raw`: a whole RFC 5322 e-mail, base64 (the standard alphabet or the URL
/// one, padded or not, as Gmail's API gives `raw`), read as an e-mail from a mailbox is; its id
/// is its Message-ID, else a hash of its bytes. `file` and `offset`, when given, say where the
/// message was read (a job that split a mailbox upstream gives the mailbox and the byte offset),
/// instead of this file and line.
public enum JSONLinesMessageReader {
    /// Decodes one line. `line` is the 1-based line number, used as the record's offset.
    public static func record(from bytes: ArraySlice<UInt8>, file: String, line: Int) -> InputRecord {
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: Data(bytes))
        } catch {
            return .malformed(file: file, offset: line, reason: "line \(line): not valid JSON")
        }
        guard let fields = object as? [String: Any] else {
            return .malformed(file: file, offset: line, reason: "line \(line): not a JSON object")
        }
        // Where the message was read, as the line says (a job that split a mailbox upstream).
        var place = (file: file, offset: line)
        if let given = fields["file"] as? String { place.file = given }
        if let given = fields["offset"] as? Int, given >= 0 { place.offset = given }
        if let raw = fields["raw"] {
            guard let text = raw as? String, let bytes = decodeBase64(text), !bytes.isEmpty else {
                return .malformed(file: file, offset: line, reason: "line \(line): 'raw' is not a base64 e-mail")
            }
            return .email(RawEmail(bytes: bytes, file: place.file, offset: place.offset))
        }
        guard let text = fields["text"] as? String else {
            return .malformed(file: file, offset: line, reason: "line \(line): no 'text' string")
        }
        let id = (fields["id"] as? String) ?? (fields["id"] as? NSNumber)?.stringValue ?? "\(file):\(line)"
        var receivedAt: Date?
        if let raw = fields["received_at"] as? String {
            guard let date = parseTimestamp(raw) else {
                return .malformed(file: file, offset: line, reason: "line \(line): invalid received_at '\(raw)'")
            }
            receivedAt = date
        }
        let channel = (fields["channel"] as? String).flatMap { MessageChannel(rawValue: $0.lowercased()) } ?? .unknown
        return .message(Message(id: id, text: HTMLText.readable(text), sender: fields["sender"] as? String,
                                subject: fields["subject"] as? String, receivedAt: receivedAt,
                                channel: channel, file: place.file, offset: place.offset))
    }

    /// Base64 in the standard or the URL-safe alphabet, padded or not, line breaks allowed (the
    /// MIME decoder's rules); nil when a character is outside both alphabets.
    static func decodeBase64(_ text: String) -> [UInt8]? {
        var encoded = Array(text.utf8)
        for index in encoded.indices {
            switch encoded[index] {
            case UInt8(ascii: "-"): encoded[index] = UInt8(ascii: "+")
            case UInt8(ascii: "_"): encoded[index] = UInt8(ascii: "/")
            default: break
            }
        }
        let (bytes, invalid) = encoded.withUnsafeBytes { MIMEBase64.decode($0) }
        return invalid == 0 ? bytes : nil
    }
}
