/// Writes a phone's SMS history as an SMS Backup & Restore (SyncTech) XML file, element for
/// element as the Android app does: the XML declaration, `<smses count=… backup_set=…
/// backup_date=…>`, one self-closing `<sms … />` line per message with every attribute the app
/// writes, bodies escaped, emoji outside the BMP as surrogate-pair references (`&#55357;&#56832;`).
public enum SMSBackupWriter {
    /// Writes `count` messages; labels carry the 0-based ordinal of the `<sms>` element.
    public static func write(count: Int, seed: UInt64, to sink: ByteSink, labels: LabelWriter) {
        var stream = TextMessageStream(seed: seed, includeSent: true)
        var header = CorpusRandom(seed: seed ^ 0x5A5A_5A5A)
        let backupSet = uuid(&header)
        // The backup is taken after the last message; its date is known only at the end, so it
        // is derived from the count instead (the stream moves at most 6 hours a message).
        let backupDate = (CivilTime.seconds(year: 2025, month: 6, day: 1) + (count + 1) * 6 * 3600) * 1000
        sink.write("<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>\n")
        sink.write("<smses count=\"\(count)\" backup_set=\"\(backupSet)\" backup_date=\"\(backupDate)\" type=\"full\">\n")
        for ordinal in 0..<count {
            let message = stream.next()
            if let label = message.label { labels.write(ordinal: ordinal, label) }
            let local = CivilTime(seconds: message.epochMilliseconds / 1000 + 19_800)
            let readable = "\(local.monthName) \(local.day), \(local.year) \(local.hour12):\(pad2(local.minute)):\(pad2(local.second)) \(local.meridiem)"
            let sentAt = message.sent ? 0 : message.epochMilliseconds - 1000 * (message.epochMilliseconds % 7 + 1)
            let contact = message.address.hasPrefix("+") ? contactName(message.address) : "(Unknown)"
            sink.write("  <sms protocol=\"0\" address=\"\(TextEscaping.xmlAttribute(message.address))\" date=\"\(message.epochMilliseconds)\" "
                + "type=\"\(message.sent ? 2 : 1)\" subject=\"null\" body=\"\(TextEscaping.xmlAttribute(message.text))\" "
                + "toa=\"null\" sc_toa=\"null\" service_center=\"null\" read=\"1\" status=\"-1\" locked=\"0\" "
                + "date_sent=\"\(sentAt)\" sub_id=\"1\" readable_date=\"\(readable)\" contact_name=\"\(TextEscaping.xmlAttribute(contact))\" />\n")
        }
        sink.write("</smses>\n")
    }

    private static func contactName(_ number: String) -> String {
        ["Amma", "Rahul", "Priya (work)", "Neha", "John Smith"][Int(number.utf8.last ?? 0) % 5]
    }

    /// A random version-4 UUID, lowercase.
    static func uuid(_ random: inout CorpusRandom) -> String {
        let hex = Array("0123456789abcdef")
        var text = ""
        for index in 0..<32 {
            if [8, 12, 16, 20].contains(index) { text += "-" }
            let digit = index == 12 ? 4 : index == 16 ? 8 + random.int(in: 0...3) : random.int(in: 0...15)
            text.append(hex[digit])
        }
        return text
    }
}
