import Foundation
import PCRE2
import SpendlexRules

/// Why a message parsed the way it did: routing, every parser tried, every capture.
public struct Explanation: Sendable {
    /// What one parser made of the message.
    public enum ParserResult: Sendable {
        /// It matched; the raw text of each field it captured.
        case matched([(field: FieldName, raw: String)])
        /// Its `when` pattern did not match.
        case gateFailed
        /// Its pattern did not match.
        case noMatch
        /// A PCRE2 limit stopped it.
        case limit(MatchError)
    }

    /// One bank's part.
    public struct BankTrace: Sendable {
        /// The bank.
        public let bank: String
        /// The subject filter stopped the bank (email only).
        public let subjectFiltered: Bool
        /// The ignore rule that matched, if any.
        public let ignoredBy: String?
        /// Every enabled parser, in order.
        public let parsers: [(parser: String, result: ParserResult)]
    }

    /// The message's sender, as given.
    public let sender: String?
    /// Whether the sender picked the banks (else: every bank that `detect` or lacks it).
    public let routedBySender: Bool
    /// Banks tried, in order.
    public let banks: [BankTrace]
    /// What the engine returns for the message.
    public let outcome: ParseOutcome

    /// A readable report; card numbers in the text are masked.
    public func render(writer: TransactionWriter = TransactionWriter(format: .jsonl)) -> String {
        var out = ""
        if let sender {
            out += routedBySender ? "sender \(sender): routed to \(banks.map(\.bank).joined(separator: ", "))\n"
                : "sender \(sender): not in any bank's senders; trying banks by text\n"
        } else {
            out += "no sender: trying banks by text (\(banks.count) candidate\(banks.count == 1 ? "" : "s"))\n"
        }
        for trace in banks {
            out += "bank \(trace.bank):\n"
            if trace.subjectFiltered { out += "  subject is not a transaction subject: ignored\n" }
            if let rule = trace.ignoredBy { out += "  ignored by \(rule)\n" }
            for (parser, result) in trace.parsers {
                switch result {
                case .matched(let captures):
                    out += "  \(parser): matched\n"
                    for (field, raw) in captures.sorted(by: { $0.field.rawValue < $1.field.rawValue }) {
                        out += "    \(field.rawValue) = \"\(CardNumberMasker.mask(raw))\"\n"
                    }
                case .gateFailed: out += "  \(parser): 'when' pattern did not match\n"
                case .noMatch: out += "  \(parser): no match\n"
                case .limit(let error): out += "  \(parser): stopped by a match limit (\(error))\n"
                }
            }
        }
        switch outcome {
        case .transaction(let transaction):
            out += "result: transaction by \(transaction.rule) (normalized)\n" + writer.row(transaction)
        default:
            out += "result: \(outcome.reason)\n"
        }
        return out
    }
}

extension RuleEngine.Worker {
    /// Parses the message and records how: every candidate bank and every parser is
    /// tried, even after the first match, so that overlaps show.
    public func explain(_ message: Message) -> Explanation {
        let route = self.route(message)
        var traces: [Explanation.BankTrace] = []
        for index in route.banks {
            let bank = rules.banks[index]
            let filtered = route.bySender && message.subject.map { subject in
                !bank.subjects.isEmpty && !bank.subjects.contains { (try? $0.matches(subject, scratch: scratch)) == true }
            } == true
            let ignoredBy = bank.ignore.first { (try? $0.pattern.matches(message.text, scratch: scratch)) == true }?.id
            var parsers: [(String, Explanation.ParserResult)] = []
            for parser in bank.parsers {
                let result: Explanation.ParserResult
                switch extract(parser, from: message.text) {
                case .failure(let error): result = .limit(error)
                case .success(let raw?): result = .matched(raw.captured)
                case .success(nil):
                    if case .perField(let gate?, _) = parser.matcher,
                       (try? gate.matches(message.text, scratch: scratch)) != true {
                        result = .gateFailed
                    } else {
                        result = .noMatch
                    }
                }
                parsers.append((parser.id, result))
            }
            traces.append(.init(bank: bank.id, subjectFiltered: filtered, ignoredBy: ignoredBy, parsers: parsers))
        }
        return Explanation(sender: message.sender, routedBySender: route.bySender, banks: traces,
                           outcome: parse(message))
    }
}
