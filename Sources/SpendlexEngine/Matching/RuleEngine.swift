import Foundation
import PCRE2
import SpendlexRules

/// Turns messages into transactions with a compiled rule set.
///
/// The engine is immutable and `Sendable`; each thread makes its own `Worker`, which
/// owns the per-thread PCRE2 scratch (match data, JIT stack). Results are deterministic:
/// banks are tried in routing order, parsers in file order, and the first match wins.
public struct RuleEngine: Sendable {
    /// The compiled rules.
    public let rules: CompiledRuleSet

    /// Creates an engine over compiled rules.
    public init(rules: CompiledRuleSet) {
        self.rules = rules
    }

    /// A worker for the calling thread.
    public func makeWorker() -> Worker {
        Worker(rules: rules)
    }

    /// Per-thread matching state. Not shareable between threads.
    public final class Worker {
        /// The rules this worker applies.
        public let rules: CompiledRuleSet
        let scratch: MatchScratch
        /// Routing results by raw sender: a mailbox has few distinct senders, and this
        /// lookup runs for every message. Cleared when it grows past `senderCacheLimit`.
        private var senderCache: [String: [Int]] = [:]
        private static let senderCacheLimit = 4096

        init(rules: CompiledRuleSet) {
            self.rules = rules
            self.scratch = MatchScratch()
        }

        /// Parses one message: route, ignore, match, normalize.
        public func parse(_ message: Message) -> ParseOutcome {
            parse(message, route: route(message))
        }

        /// `parse(_:)` with the sender already routed: `senderBanks` is `banks(forSender:)` of
        /// the message's sender, as the reading thread of a batch looked it up to decide
        /// whether to decode the body; the lookup (hashing the sender) is not done twice.
        package func parse(_ message: Message, senderBanks: [Int]) -> ParseOutcome {
            parse(message, route: senderBanks.isEmpty ? route(message) : (senderBanks, true))
        }

        private func parse(_ message: Message, route: (banks: [Int], bySender: Bool)) -> ParseOutcome {
            for bankIndex in route.banks {
                if let outcome = parse(message, bank: rules.banks[bankIndex], routedBySender: route.bySender) {
                    return outcome
                }
            }
            return .unmatched(banks: route.banks.map { rules.banks[$0].id }, routedBySender: route.bySender)
        }

        /// Parses a message as if it came from `bankID`, skipping sender routing: how a
        /// bank's examples are tested. Returns `.unmatched` when no parser of the bank matches.
        public func parse(_ message: Message, asBank bankID: String) -> ParseOutcome {
            guard let bank = rules.bank(id: bankID) else { return .unmatched(banks: [], routedBySender: false) }
            return parse(message, bank: bank, routedBySender: true)
                ?? .unmatched(banks: [bankID], routedBySender: true)
        }

        /// The ids of every parser of `bankID` whose pattern matches the message, in order,
        /// ignoring ignore rules: how overlapping parsers are found.
        public func matchingParsers(_ message: Message, bank bankID: String) -> [String] {
            guard let bank = rules.bank(id: bankID) else { return [] }
            return bank.parsers.filter { parser in
                if case .success(.some) = extract(parser, from: message.text) { return true }
                return false
            }.map(\.id)
        }

        /// Whether some bank's `senders` names this sender: the cheap check, on headers only,
        /// that decides whether an email's body is worth decoding.
        public func isBankSender(_ sender: String) -> Bool {
            !banks(forSender: sender).isEmpty
        }

        /// Indices (into `rules.banks`) of the banks whose `senders` name this sender, in bank order.
        package func banks(forSender sender: String) -> [Int] {
            if let known = senderCache[sender] { return known }
            let banks = rules.router.banks(forSender: sender)
            if senderCache.count >= Self.senderCacheLimit { senderCache.removeAll(keepingCapacity: true) }
            senderCache[sender] = banks
            return banks
        }

        /// Whether a text looks like a transaction alert (an amount with a currency and a
        /// money-movement word), for reporting messages no rule covers.
        public func looksLikeTransaction(_ text: String) -> Bool {
            TransactionLikeness.amount.matchesOrFalse(text, scratch: scratch)
                && TransactionLikeness.movement.matchesOrFalse(text, scratch: scratch)
        }

        /// Candidate banks: by sender when it is known to the rules; otherwise every bank
        /// whose `detect` patterns match the text, then every bank without `detect` patterns.
        func route(_ message: Message) -> (banks: [Int], bySender: Bool) {
            if let sender = message.sender {
                let banks = banks(forSender: sender)
                if !banks.isEmpty { return (banks, true) }
            }
            var detected: [Int] = []
            var undetectable: [Int] = []
            for (index, bank) in rules.banks.enumerated() {
                if bank.detect.isEmpty {
                    undetectable.append(index)
                } else if bank.detect.contains(where: { (try? $0.matches(message.text, scratch: scratch)) == true }) {
                    detected.append(index)
                }
            }
            return (detected + undetectable, false)
        }

        /// One bank's pipeline: subject filter, ignore rules, parsers. nil when nothing matched.
        func parse(_ message: Message, bank: CompiledBank, routedBySender: Bool) -> ParseOutcome? {
            if routedBySender, let subject = message.subject, !bank.subjects.isEmpty,
               !bank.subjects.contains(where: { (try? $0.matches(subject, scratch: scratch)) == true }) {
                return .ignored(rule: "\(bank.id).subjects", bank: bank.id)
            }
            for (id, pattern) in bank.ignore where (try? pattern.matches(message.text, scratch: scratch)) == true {
                return .ignored(rule: id, bank: bank.id)
            }
            for parser in bank.parsers {
                switch extract(parser, from: message.text) {
                case .failure(let error):
                    return .matchLimit(rule: parser.id, error: error)
                case .success(let raw?):
                    return TransactionBuilder.build(parser: parser, defaults: bank.defaults, raw: raw,
                                                    message: message, routedBySender: routedBySender)
                case .success(nil):
                    continue
                }
            }
            return nil
        }

        /// `text.utf8Slice(range)`, reading the bytes in place: `utf8Slice` copies the string to
        /// reach them (a retain and a release), for every field of every message.
        private static func slice(_ text: String, _ range: Range<Int>) -> String {
            text.withUTF8Bytes { String(decoding: UnsafeBufferPointer(rebasing: $0[range]), as: UTF8.self) }
        }

        /// The raw text of each field the parser finds, or nil when it does not match.
        func extract(_ parser: CompiledParser, from text: String) -> Result<FieldValues?, MatchError> {
            do {
                switch parser.matcher {
                case .single(let pattern, let groups):
                    guard let match = try pattern.firstMatch(in: text, scratch: scratch) else { return .success(nil) }
                    var raw = FieldValues()
                    for (field, numbers) in groups {
                        if let range = numbers.lazy.compactMap({ match[$0] }).first {
                            raw[field] = Self.slice(text, range)
                        }
                    }
                    return .success(raw)
                case .perField(let gate, let fields):
                    if let gate, try !gate.matches(text, scratch: scratch) { return .success(nil) }
                    var raw = FieldValues()
                    for (name, pattern, group) in fields {
                        if let match = try pattern.firstMatch(in: text, scratch: scratch),
                           let range = match[group] ?? match[0] {
                            raw[name] = Self.slice(text, range)
                        }
                    }
                    // Without a gate, a per-field parser matches only if it finds an amount.
                    if gate == nil && raw[.amount] == nil { return .success(nil) }
                    return .success(raw)
                }
            } catch {
                return .failure(error)
            }
        }
    }
}

/// Two cheap patterns that together say "this reads like a transaction alert".
enum TransactionLikeness {
    // The patterns are constants known to compile; a failure here is a programming error.
    static let amount = try! Pattern(
        #"(?i)(?:\b(?:rs\.?|inr|usd|eur|gbp|idr|rp|aed|sgd|cad|aud)|[₹$€£¥])\s?\d[\d,.]*"#)
    static let movement = try! Pattern(
        #"(?i)\b(?:debited|credited|spent|paid|received|withdrawn|charged|purchase|deducted|transaction|txn|transferred)\b"#)
}

extension Pattern {
    /// `matches`, treating a match-limit error as no match (for heuristics only).
    fileprivate func matchesOrFalse(_ text: String, scratch: MatchScratch) -> Bool {
        (try? matches(text, scratch: scratch)) ?? false
    }
}
