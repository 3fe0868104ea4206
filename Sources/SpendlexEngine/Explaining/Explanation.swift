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
        /// A fallback that does not read this message: its sender is a person (`personal_senders`)
        /// and the text names no bank.
        public var personalSender = false
        /// Every enabled parser, in order.
        public let parsers: [(parser: String, result: ParserResult)]
    }

    /// The message's sender, as given.
    public let sender: String?
    /// Whether the sender picked the banks (else: every bank that `detect` or lacks it).
    public let routedBySender: Bool
    /// Banks tried, in order.
    public let banks: [BankTrace]
    /// Fallback files tried after the banks (all of them, as for the banks), as the country the
    /// message is read as.
    public var fallbacks: [BankTrace]
    /// Whether the fallback files read the message again with its subject as the body's first line
    /// (an e-mail whose body they read nothing from; the traces in `fallbacks` are of that reading).
    public var fallbacksReadSubject = false
    /// The country the fallback files read the message as: the named bank's, or the one inferred
    /// from the sender or the text (`countryInferred`); nil when none is known.
    public var readAs: String? = nil
    public var countryInferred = false
    /// Format recognition, when a fallback's gate matched: every other bank's parser whose literals
    /// the text holds (in the order tried, each with its own bank) and what it made of the message;
    /// nil when it was not tried.
    public var formats: [(bank: String, parser: String, result: ParserResult)]? = nil
    /// What the engine returns for the message.
    public let outcome: ParseOutcome
    /// The thresholds behind `status`.
    public let policy: ConfidencePolicy
    /// How the decision tables categorized the transaction, when a categories file is loaded.
    public var category: CategoryDecision? = nil

    /// A readable report; card numbers in the text are masked.
    public func render(writer: TransactionWriter = TransactionWriter(format: .jsonl)) -> String {
        var out = ""
        if let sender {
            out += routedBySender ? "sender \(sender): routed to \(banks.map(\.bank).joined(separator: ", "))\n"
                : "sender \(sender): not in any bank's senders; trying banks by text\n"
        } else {
            out += "no sender: trying banks by text (\(banks.count) candidate\(banks.count == 1 ? "" : "s"))\n"
        }
        let country = readAs.map { code in
            countryInferred ? " (read as \(code), the country the sender or the text points to)"
                : " (read as \(code), the named bank's country)"
        } ?? ""
        for trace in banks + fallbacks {
            let isFallback = fallbacks.contains(where: { $0.bank == trace.bank })
            out += isFallback ? "fallback \(trace.bank)\(country):\n" : "bank \(trace.bank):\n"
            if isFallback, fallbacksReadSubject {
                out += "  the body alone gave nothing: read again with the subject as its first line\n"
            }
            if trace.subjectFiltered { out += "  subject is not a transaction subject: ignored\n" }
            if trace.personalSender { out += "  the sender is a person (personal_senders) and the text names no bank: not read\n" }
            if let rule = trace.ignoredBy { out += "  ignored by \(rule)\n" }
            for (parser, result) in trace.parsers { out += Self.render(parser, result) }
        }
        if let formats {
            if formats.isEmpty {
                out += "format recognition: no other bank's parser has its literals in the text\n"
            } else {
                out += "format recognition: other banks' parsers whose literals the text holds, in the order tried\n"
                for format in formats { out += Self.render("\(format.parser) (\(format.bank))", format.result) }
            }
        }
        switch outcome {
        case .transaction(let transaction):
            out += "result: transaction by \(transaction.rule) (normalized)\n" + writer.row(transaction)
            out += Self.render(transaction, policy: policy)
            if let category { out += Self.render(category) }
        default:
            out += "result: \(outcome.reason)\n"
        }
        return out
    }
}

extension Explanation {
    /// One parser's line, and its captures.
    static func render(_ parser: String, _ result: ParserResult) -> String {
        switch result {
        case .matched(let captures):
            var out = "  \(parser): matched\n"
            for (field, raw) in captures.sorted(by: { $0.field.rawValue < $1.field.rawValue }) {
                out += "    \(field.rawValue) = \"\(CardNumberMasker.mask(raw))\"\n"
            }
            return out
        case .gateFailed: return "  \(parser): 'when' pattern did not match\n"
        case .noMatch: return "  \(parser): no match\n"
        case .limit(let error): return "  \(parser): stopped by a match limit (\(error))\n"
        }
    }

    /// The confidence part by part, and why the status is what it is.
    static func render(_ transaction: Transaction, policy: ConfidencePolicy) -> String {
        let threshold = TransactionWriter.twoDecimals(policy.okThreshold)
        var out = "confidence \(TransactionWriter.twoDecimals(transaction.confidence)): status \(transaction.status.rawValue)"
        switch transaction.status {
        case .ok: out += " (ok from \(threshold))\n"
        case .review: out += " (below \(threshold))\n"
        case .pending: out += " (a required field is missing)\n"
        }
        let doubts = transaction.confidenceParts.doubts
        if doubts.isEmpty {
            out += "  1.00  bank-specific parser, bank from the sender, every field found and valid\n"
        } else {
            out += "  1.00  start\n"
            for doubt in doubts {
                out += "- \(TransactionWriter.twoDecimals(doubt.weight))  \(doubt.part): \(doubt.summary)\n"
            }
        }
        return out
    }
}

extension Explanation {
    /// Which table and row decided the category, and why.
    static func render(_ decision: CategoryDecision) -> String {
        let output = [decision.category ?? "none", decision.subcategory].compactMap { $0 }.joined(separator: " > ")
        var out = "category \(output)"
        if let table = decision.table {
            out += " by table \(table), row\(decision.rows.count == 1 ? "" : "s") \(decision.rows.joined(separator: ", "))"
        }
        out += decision.isDefault ? " (catch-all)\n" : "\n"
        for reason in decision.reasons { out += "  \(reason)\n" }
        if !decision.tags.isEmpty { out += "  tags: \(decision.tags.joined(separator: ", "))\n" }
        return out
    }
}

extension RuleEngine.Worker {
    /// Parses the message and records how: every candidate bank and every parser is
    /// tried, even after the first match, so that overlaps show.
    public func explain(_ message: Message) -> Explanation {
        let route = self.route(message)
        let traces = route.banks.map { trace(message, bank: rules.banks[$0], routedBySender: route.bySender) }
        let named = route.bySender ? route.banks.first : route.detected.first
        // The fallback files as the engine reads them: as the named bank's country, else the one
        // the sender or the text points to (`parse`).
        var country: CompiledCountry?
        var inferred = false
        if let code = named.flatMap({ rules.banks[$0].defaults.country }) {
            country = rules.countryByCode[code]
        } else if !rules.fallbacks.isEmpty, let found = inferCountry(message) {
            country = found
            inferred = true
        }
        let fallbackBanks = country?.fallbacks ?? rules.fallbacks.map { rules.banks[$0] }
        func fallbackTraces(_ message: Message) -> [Explanation.BankTrace] {
            fallbackBanks.map { bank in
                var trace = trace(message, bank: bank, routedBySender: false)
                trace.personalSender = named == nil && bank.isPersonalSender(message.sender, scratch: scratch)
                return trace
            }
        }
        var fallbacks = fallbackTraces(message)
        // As `parse` does: an e-mail whose body no fallback parser reads is read again with its subject first.
        var readSubject = false
        if let subject = message.subject, subject.utf8.contains(where: { $0 &- 0x30 < 10 }),
           fallbacks.allSatisfy({ trace in
               trace.ignoredBy == nil && !trace.subjectFiltered && !trace.personalSender
                   && !trace.parsers.contains { if case .matched = $0.result { true } else { false } }
           }) {
            var titled = message
            titled.text = subject + "\n" + message.text
            fallbacks = fallbackTraces(titled)
            readSubject = true
        }
        // Format recognition is tried when a fallback read the message and one of its gates matched.
        var formats: [(bank: String, parser: String, result: Explanation.ParserResult)]?
        let gateMatched = fallbacks.contains { trace in
            trace.ignoredBy == nil && !trace.personalSender && !trace.subjectFiltered
                && trace.parsers.contains { if case .matched = $0.result { true } else { false } }
        }
        if gateMatched, let fallback = fallbackBanks.first {
            formats = formatCandidates(message, country: fallback.defaults.country, tried: route.banks).map { format in
                let bank = rules.banks[format.bank]
                return (bank.id, bank.parsers[format.parser].id, result(of: bank.parsers[format.parser], on: message))
            }
        }
        let outcome = parse(message)
        var explanation = Explanation(sender: message.sender, routedBySender: route.bySender, banks: traces,
                                      fallbacks: fallbacks, outcome: outcome, policy: policy)
        explanation.fallbacksReadSubject = readSubject
        explanation.readAs = country?.code
        explanation.countryInferred = inferred
        explanation.formats = formats
        explanation.category = outcome.transaction.flatMap(categorize)
        return explanation
    }

    private func trace(_ message: Message, bank: CompiledBank, routedBySender: Bool) -> Explanation.BankTrace {
        // As `parse` filters: a bank's e-mail by its subjects; a fallback's also takes mail whose subject
        // or sender names a country profile's bank (`takesEmail`).
        let filtered = message.subject.map { subject in
            guard !bank.subjects.isEmpty else { return false }
            if bank.isFallback { return !takesEmail(bank, subject: subject, sender: message.sender) }
            return routedBySender && !bank.subjects.contains { (try? $0.matches(subject, scratch: scratch)) == true }
        } == true
        // A fallback's ignore rules read an e-mail's subject too (`parse`).
        let subjectIgnoredBy = bank.isFallback ? message.subject.flatMap { ignoringRule(of: bank, in: $0) } : nil
        let ignoredBy = subjectIgnoredBy.map { "\($0) (in the subject)" } ?? ignoringRule(of: bank, in: message.text)
        let parsers = bank.parsers.map { parser in (parser.id, result(of: parser, on: message)) }
        return .init(bank: bank.id, subjectFiltered: filtered, ignoredBy: ignoredBy, parsers: parsers)
    }

    /// What one parser makes of the message, the field layer's finds included.
    private func result(of parser: CompiledParser, on message: Message) -> Explanation.ParserResult {
        switch extract(parser, from: message.text) {
        case .failure(let error): return .limit(error)
        case .success(var raw?):
            fillFromLayer(&raw, parser: parser, text: message.text)
            return .matched(raw.captured)
        case .success(nil):
            if case .perField(let gate?, _) = parser.matcher, (try? gate.matches(message.text, scratch: scratch)) != true {
                return .gateFailed
            }
            return .noMatch
        }
    }
}
