import Foundation
import SpendlexEngine
import SpendlexRules

/// One item read from an input: a message, or a record that could not be read as one
/// (kept, with its place and reason, so that nothing is lost silently).
public enum InputRecord: Sendable {
    /// A message to parse.
    case message(Message)
    /// An unreadable record: where it is and why.
    case malformed(file: String, offset: Int, reason: String)
}

/// The JSON Lines message format: one object a line with `text` and optionally `id`,
/// `sender`, `subject`, `received_at` (ISO 8601) and `channel` (`email`, `sms`, `push`).
/// Other keys are ignored. A line without an id gets `FILE:LINE` as its id. A text that is an
/// HTML document (an e-mail body) is read as its readable text. Lines are split by
/// `InputReader`; this decodes one.
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
                                channel: channel, file: file, offset: line))
    }
}
