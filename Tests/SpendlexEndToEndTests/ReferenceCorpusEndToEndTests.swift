import Foundation
import Testing

extension EndToEnd {
    /// The reference corpus (gen_mbox.py: alerts of 12 banks with their footers, and OTPs, declines,
    /// statements, promotions and personal mail around them) read with the bundled rule pack, as a
    /// new user's first run reads it: every labelled alert is a transaction with its amount, and
    /// nothing else is. The bundled pack was written from other messages than these (the benchmark
    /// has its own rules, `Benchmarks/rules`); a safety footer naming the OTP once made five of the
    /// twelve banks' alerts "ignored", unnoticed, so this reads them end to end.
    @Suite("The bundled rules on the reference corpus, end to end")
    struct ReferenceCorpusEndToEndTests {
        @Test("every labelled alert of 1,500 reference mails is a transaction with its amount; no other mail is one")
        func bundledRulesReadTheReferenceCorpus() throws {
            let (folder, mbox) = try generateReferenceCorpus(count: 1500, seed: 11)
            defer { try? FileManager.default.removeItem(at: folder) }

            let parsed = try spendlex(["parse", mbox, "--quiet"])
            #expect(parsed.status == 0, "\(parsed.stderr)")
            var amountByOffset: [Int: String] = [:]
            for line in parsed.stdout.split(separator: "\n") {
                let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
                let source = try #require(object["source"] as? [String: Any])
                let offset = try #require(source["offset"] as? Int)
                amountByOffset[offset] = object["amount"] as? String ?? ""
            }

            // Label lines: ordinal, format, amount as written, merchant, card.
            let starts = try Self.messageStarts(of: mbox)
            let labels = try String(contentsOfFile: mbox + ".labels.tsv", encoding: .utf8).split(separator: "\n")
            #expect(labels.count > 900)
            var missing: [String] = [], wrong: [String] = []
            var labelled = Set<Int>()
            for label in labels {
                let fields = label.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
                let offset = starts[try #require(Int(fields[0]))]
                labelled.insert(offset)
                guard let amount = amountByOffset[offset] else {
                    missing.append("\(fields[1]) #\(fields[0])")
                    continue
                }
                if !Self.sameAmount(written: fields[2], parsed: amount) { wrong.append("\(fields[1]) #\(fields[0]): \(fields[2]) read as \(amount)") }
            }
            #expect(missing.isEmpty, "\(missing.count) labelled alerts not read, such as \(missing.prefix(5))")
            #expect(wrong.isEmpty, "\(wrong.count) amounts wrong, such as \(wrong.prefix(5))")
            let extra = amountByOffset.keys.filter { !labelled.contains($0) }
            #expect(extra.isEmpty, "\(extra.count) transactions from mail that is no alert")
        }

        /// The byte offset of each message of an mbox ("From " after a blank line, or at the start).
        static func messageStarts(of path: String) throws -> [Int] {
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
            var starts: [Int] = []
            var lineStart = 0, previousLineEmpty = true
            while lineStart < bytes.count {
                let end = bytes[lineStart...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
                if previousLineEmpty, bytes[lineStart..<end].starts(with: Array("From ".utf8)) { starts.append(lineStart) }
                previousLineEmpty = end == lineStart
                lineStart = end + 1
            }
            return starts
        }

        /// Whether an amount as the label writes it ("2.873,98", "1,262.06", "2.560.000") is the one
        /// read ("2873.98"): the same digits, the read one maybe with cents the label leaves out.
        static func sameAmount(written: String, parsed: String) -> Bool {
            let a = written.filter(\.isNumber), b = parsed.filter(\.isNumber)
            return a == b || a + "00" == b
        }
    }
}
