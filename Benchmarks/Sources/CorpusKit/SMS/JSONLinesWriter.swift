/// Writes the JSON Lines message format (`{"id","text","sender","received_at","channel"}`), one
/// received SMS a line, with the same mix of messages as the SMS backup (no sent messages).
public enum JSONLinesWriter {
    /// Writes `count` lines; labels carry the 0-based line index (the id is `sms-<index>`).
    public static func write(count: Int, seed: UInt64, to sink: ByteSink, labels: LabelWriter) {
        var stream = TextMessageStream(seed: seed, includeSent: false)
        for ordinal in 0..<count {
            let message = stream.next()
            if let label = message.label { labels.write(ordinal: ordinal, label) }
            let local = CivilTime(seconds: message.epochMilliseconds / 1000 + 19_800)
            let receivedAt = "\(local.year)-\(pad2(local.month))-\(pad2(local.day))T\(local.hms)+05:30"
            sink.write("{\"id\":\"sms-\(ordinal)\",\"text\":\(TextEscaping.jsonString(message.text)),"
                + "\"sender\":\(TextEscaping.jsonString(message.address)),\"received_at\":\"\(receivedAt)\",\"channel\":\"sms\"}\n")
        }
    }
}
