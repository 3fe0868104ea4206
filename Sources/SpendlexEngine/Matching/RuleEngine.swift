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
    /// The thresholds behind each transaction's `status`.
    public let policy: ConfidencePolicy
    /// PCRE2's backtracking steps for one match of one pattern (`pcre2_set_match_limit`): a
    /// pattern that would backtrack longer on a message stops there, and the message is an
    /// error naming the rule (`ParseOutcome.matchLimit`) while the run goes on.
    public let matchLimit: UInt32

    /// The default `matchLimit`: a million steps. A sound pattern takes a few hundred on an SMS;
    /// a catastrophic one (nested quantifiers on a long text) reaches it on one message.
    public static let defaultMatchLimit: UInt32 = 1_000_000

    /// Creates an engine over compiled rules.
    public init(rules: CompiledRuleSet, policy: ConfidencePolicy = ConfidencePolicy(),
                matchLimit: UInt32 = RuleEngine.defaultMatchLimit) {
        self.rules = rules
        self.policy = policy
        self.matchLimit = matchLimit
    }

    /// A worker for the calling thread.
    public func makeWorker() -> Worker {
        Worker(rules: rules, policy: policy, matchLimit: matchLimit)
    }

    /// Per-thread matching state. Not shareable between threads.
    public final class Worker {
        /// The rules this worker applies.
        public let rules: CompiledRuleSet
        let policy: ConfidencePolicy
        let scratch: MatchScratch
        /// Routing results by raw sender: a mailbox has few distinct senders, and this
        /// lookup runs for every message. Cleared when it grows past `senderCacheLimit`.
        private var senderCache: [String: [Int]] = [:]
        private static let senderCacheLimit = 4096

        init(rules: CompiledRuleSet, policy: ConfidencePolicy, matchLimit: UInt32 = RuleEngine.defaultMatchLimit) {
            self.rules = rules
            self.policy = policy
            self.scratch = MatchScratch(matchLimit: matchLimit)
        }

        /// Parses one message: route, ignore, match, normalize; then the fallback files.
        public func parse(_ message: Message) -> ParseOutcome {
            parse(message, route: route(message))
        }

        /// `parse(_:)` with the sender already routed: `senderBanks` is `banks(forSender:)` of
        /// the message's sender, as the reading thread of a batch looked it up to decide
        /// whether to decode the body; the lookup (hashing the sender) is not done twice.
        package func parse(_ message: Message, senderBanks: [Int]) -> ParseOutcome {
            parse(message, route: senderBanks.isEmpty ? route(message) : Route(banks: senderBanks, bySender: true))
        }

        /// Parsers that matched the message being parsed but found no amount: no transaction, and
        /// the reason the message is unmatched.
        private var withoutAmount: [String] = []
        /// Where each pattern's literals last start in the text being screened (`LiteralScreen`).
        private var literalStarts: [Int] = []
        /// The screen (`CompiledBank.screen`) of the message being parsed by the bank being tried.
        private var bankScreened: [Int] = []
        /// The banks the message being parsed was routed to, whose parsers all failed: format
        /// recognition does not try them again.
        private var triedBanks: [Int] = []

        private func parse(_ message: Message, route: Route) -> ParseOutcome {
            withoutAmount.removeAll(keepingCapacity: true)
            let source: BankSource = route.bySender ? .sender : .text
            for bankIndex in route.banks {
                let bank = rules.banks[bankIndex]
                if let outcome = parse(message, bank: bank, source: source, as: bank) { return outcome }
            }
            // The banks tried could not read it: the fallback files may, on behalf of the bank
            // the sender or the text named, if any.
            if !rules.fallbacks.isEmpty {
                triedBanks = route.banks
                let named = route.bySender ? route.banks.first : route.detected.first
                let namedBank = named.map { rules.banks[$0] }
                // The fallback reads with the conventions of the named bank's country, else of the
                // country the sender or the text points to, else with none.
                var country: CompiledCountry?
                var inferred = false
                if let code = namedBank?.defaults.country {
                    country = rules.countryByCode[code]
                } else if let found = inferCountry(message) {
                    country = found
                    inferred = true
                }
                let fallbacks = country?.fallbacks ?? rules.fallbacks.map { rules.banks[$0] }
                for fallback in fallbacks {
                    if let outcome = parseWithFallback(message, fallback: fallback, namedBank: namedBank,
                                                       source: named == nil ? .none : source,
                                                       countryInferred: inferred) {
                        return outcome
                    }
                }
            }
            return .unmatched(banks: route.banks.map { rules.banks[$0].id }, routedBySender: route.bySender,
                              withoutAmount: withoutAmount)
        }

        /// A fallback file's pipeline. Its `subjects` filter every email (not only those routed by
        /// sender), and its transactions take the named bank's id and defaults when there is one.
        private func parseWithFallback(_ message: Message, fallback: CompiledBank, namedBank: CompiledBank?,
                                       source: BankSource, countryInferred: Bool = false) -> ParseOutcome? {
            if let subject = message.subject, !fallback.subjects.isEmpty,
               !takesEmail(fallback, subject: subject, sender: message.sender) {
                return nil
            }
            // An e-mail whose subject says the money did not move ("INTERAC e-Transfer: your transfer
            // expired", "Payment declined") is ignored whatever its body repeats ("sent you $12.00").
            if let subject = message.subject, let id = ignoringRule(of: fallback, in: subject) {
                return .ignored(rule: id, bank: fallback.id)
            }
            var doubts = Confidence()
            if countryInferred { doubts.insert(.countryInferred) }
            let outcome = parse(message, bank: fallback, source: source, as: namedBank ?? fallback, filterSubjects: false,
                                doubts: doubts, recognizingFormats: true)
            // An e-mail alert whose subject holds the money and whose body only names the rest
            // ("Consumo tarjeta de débito por USD 9.42" over "Establecimiento: COMISARIATO EXPRESS"):
            // read again with the subject as the body's first line, as a notification's title is.
            guard outcome == nil, let subject = message.subject, subject.utf8.contains(where: { $0 &- 0x30 < 10 }) else {
                return outcome
            }
            var titled = message
            titled.text = subject + "\n" + message.text
            return parse(titled, bank: fallback, source: source, as: namedBank ?? fallback, filterSubjects: false,
                         doubts: doubts, recognizingFormats: true)
        }

        /// Format recognition: the message read with another bank's parser, before the fallback's
        /// own. Each parser whose literals the text holds (`CompiledRuleSet.formatScreen`) is tried,
        /// in bank order, but not those of the banks already tried, nor, when the fallback reads as
        /// a country, those of banks of another country or of none; the first that finds an amount, and
        /// whose bank's ignore rules let the message be, reads it. The transaction is the owner's
        /// (the bank the sender or the text named, else the fallback) and carries the doubt
        /// `anotherBanksFormat`.
        private func recognizeFormat(_ message: Message, fallback: CompiledBank, owner: CompiledBank,
                                     source: BankSource, doubts: Confidence) -> ParseOutcome? {
            for format in formatCandidates(message, country: fallback.defaults.country, tried: triedBanks) {
                let bank = rules.banks[format.bank]
                let parser = bank.parsers[format.parser]
                guard case .success(var raw?) = extract(parser, from: message.text),
                      raw[.amount] != nil || parser.constants[.amount] != nil,
                      ignoringRule(of: bank, in: message.text) == nil else { continue }
                fillFromLayer(&raw, parser: parser, text: message.text)
                var doubts = doubts
                doubts.insert(.anotherBanksFormat)
                // With no country known, the format's bank's conventions (its currency, when the pattern
                // leaves the symbol out of the amount) over none.
                let defaults = owner.defaults.country == nil ? bank.defaults : nil
                return categorized(TransactionBuilder.build(parser: parser, owner: owner, raw: raw, message: message,
                                                            source: source, policy: policy, doubts: doubts,
                                                            defaults: defaults))
            }
            return nil
        }

        /// The parsers format recognition tries on a message, in order: those whose literals the text
        /// holds (`CompiledRuleSet.formatScreen`), not of the banks in `tried`, and, when `country` is
        /// known, only of that country's banks.
        func formatCandidates(_ message: Message, country: String?, tried: [Int]) -> [(bank: Int, parser: Int)] {
            guard !rules.formats.isEmpty, !rules.formatScreen.isEmpty else { return [] }
            rules.formatScreen.screen(message.text, into: &literalStarts)
            return rules.formats.indices.compactMap { index in
                let format = rules.formats[index]
                guard literalStarts[index] >= 0, literalStarts[index] < Int.max, !tried.contains(format.bank) else { return nil }
                if let country, rules.banks[format.bank].defaults.country != country { return nil }
                return format
            }
        }

        /// The country a message from a sender no bank names comes from: the profile whose dialling
        /// prefix (the longest) starts a phone-number sender, or whose sender-id shapes match the
        /// sender, or whose country-code domain ends an e-mail sender's address; else the one whose
        /// cues (bank names, currency forms, `text_cues`) come first in the text; else, as a prior,
        /// the one whose `likely_cues` do. nil when nothing points to one.
        func inferCountry(_ message: Message) -> CompiledCountry? {
            guard !rules.countries.isEmpty else { return nil }
            if let sender = message.sender {
                // What the sender says depends on the sender alone, and a mailbox or a phone's
                // backup has few distinct senders: looked up once each.
                let index: Int?
                if let known = senderCountryCache[sender] {
                    index = known
                } else {
                    index = countryIndex(ofSender: sender)
                    if senderCountryCache.count >= Self.senderCacheLimit { senderCountryCache.removeAll(keepingCapacity: true) }
                    senderCountryCache[sender] = index
                }
                if let index { return rules.countries[index] }
            }
            if let index = countryCued(in: message.text, first: true, withTextCues: true) { return rules.countries[index] }
            return countryLikely(in: message.text).map { rules.countries[$0] }
        }

        /// The country whose `likely_cues` match first in a text nothing else places (at the same
        /// place, the first country), or nil.
        func countryLikely(in text: String) -> Int? {
            var found: (offset: Int, country: Int)?
            for (index, cue) in rules.countryLikelyCues.enumerated() {
                guard let cue, let range = try? cue.firstRange(in: text, from: 0, upTo: text.utf8.count, scratch: scratch),
                      range.lowerBound < found?.offset ?? Int.max else { continue }
                found = (range.lowerBound, index)
            }
            return found?.country
        }

        /// The index (in `rules.countries`) of a country whose cue (a bank's name, the currency's own
        /// form before a figure) `text` holds: with `first`, the one whose cue comes first (at the same
        /// place, the first country); else any. nil when the text holds none.
        /// `withTextCues`: the profiles' `text_cues` count too (where a text is from, not whether it
        /// names a bank).
        func countryCued(in text: String, first: Bool, withTextCues: Bool = false) -> Int? {
            guard !rules.countryCues.isEmpty else { return nil }
            rules.countryCueScreen.screen(text, into: &literalStarts)
            var found: (offset: Int, country: Int)?
            for (index, cue) in rules.countryCues.enumerated() where literalStarts[index] >= 0 {
                guard let cue, let range = try? cue.firstRange(in: text, from: 0, upTo: text.utf8.count, scratch: scratch),
                      range.lowerBound < found?.offset ?? Int.max else { continue }
                if !first { return index }
                found = (range.lowerBound, index)
            }
            if withTextCues {
                // Only as far as the earliest cue found: a later one would not win.
                for (index, cue) in rules.countryTextCues.enumerated() {
                    guard let cue, let range = try? cue.firstRange(in: text, from: 0, upTo: found?.offset ?? text.utf8.count, scratch: scratch),
                          range.lowerBound < found?.offset ?? Int.max else { continue }
                    found = (range.lowerBound, index)
                }
            }
            return found?.country
        }

        /// Countries by sender (`countryIndex(ofSender:)`), nil for a sender that names none.
        private var senderCountryCache: [String: Int?] = [:]

        /// The index (in `rules.countries`) of the country a sender names: the longest dialling
        /// prefix of a phone number ("+" and 8 digits or more, spaces and dashes allowed), a
        /// profile's sender-id shape, an e-mail address's or an app package's country-code domain,
        /// or a bank of the country named in it.
        func countryIndex(ofSender sender: String) -> Int? {
            var digits: [UInt8] = []
            var isPhone = sender.utf8.first == UInt8(ascii: "+")
            if isPhone {
                for byte in sender.utf8.dropFirst() {
                    if byte >= 0x30 && byte <= 0x39 {
                        digits.append(byte)
                    } else if byte != 0x20 && byte != 0x2D {
                        isPhone = false
                        break
                    }
                }
            }
            if isPhone && digits.count >= 8 {
                var best: (index: Int, length: Int)?
                for (index, country) in rules.countries.enumerated() {
                    for prefix in country.phonePrefixes where prefix.utf8.count > (best?.length ?? 0)
                        && digits.starts(with: prefix.utf8) {
                        best = (index, prefix.utf8.count)
                    }
                }
                if let best { return best.index }
            }
            if let index = rules.countries.firstIndex(where: { country in
                country.senders.contains { (try? $0.matches(sender, scratch: scratch)) == true }
            }) {
                return index
            }
            if let code = SenderDomain.countryCode(ofEmailSender: sender) ?? SenderDomain.countryCode(ofAppPackage: sender) {
                return rules.countries.firstIndex { $0.code == code }
            }
            // A sender that names a bank ("Bancolombia", or an app's package "com.nequi.MobileApp"
            // read as its words): the country of the bank.
            let words = SenderDomain.isAppPackage(sender) ? sender.replacingOccurrences(of: ".", with: " ") : sender
            return countryCued(in: words, first: true)
        }

        /// Parses a message as if it came from `bankID`, skipping sender routing: how a
        /// bank's examples are tested. Returns `.unmatched` when no parser of the bank matches.
        public func parse(_ message: Message, asBank bankID: String) -> ParseOutcome {
            guard let bank = rules.bank(id: bankID) else { return .unmatched(banks: [], routedBySender: false) }
            withoutAmount.removeAll(keepingCapacity: true)
            return parse(message, bank: bank, source: .sender, as: bank)
                ?? .unmatched(banks: [bankID], routedBySender: true, withoutAmount: withoutAmount)
        }

        /// The ids of every parser of `bankID` whose pattern matches the message and finds an amount,
        /// in order, ignoring ignore rules: how overlapping parsers are found.
        public func matchingParsers(_ message: Message, bank bankID: String) -> [String] {
            guard let bank = rules.bank(id: bankID) else { return [] }
            // As `runParsers` reads them: a parser that finds no amount (and has none of its own) has
            // not read the message, and the next one is tried.
            return bank.parsers.filter { parser in
                if case .success(let raw?) = extract(parser, from: message.text) {
                    return raw[.amount] != nil || parser.constants[.amount] != nil
                }
                return false
            }.map(\.id)
        }

        /// Whether some bank's `senders` names this sender: the cheap check, on headers only,
        /// that decides whether an email's body is worth decoding.
        public func isBankSender(_ sender: String) -> Bool {
            !banks(forSender: sender).isEmpty
        }

        /// Whether a fallback file reads email with this subject from senders no bank names: only
        /// fallback files with `subjects` do, so that ordinary mail is never decoded for them. Mail
        /// whose subject or sender names a bank a country profile knows is read too, whatever the
        /// subject says ("Notificaciones Banreservas", or from notificaciones@banreservas.com): a
        /// bank's own mail, from a bank with no rule file.
        public func fallbackReadsEmail(subject: String?, sender: String? = nil) -> Bool {
            guard let subject else { return false }
            return rules.fallbacks.contains { index in
                !rules.banks[index].subjects.isEmpty && takesEmail(rules.banks[index], subject: subject, sender: sender)
            }
        }

        /// Whether a fallback file with `subjects` reads an e-mail: its subjects take the subject, or
        /// the subject or the sender holds a country profile's cue (`countryCued`).
        func takesEmail(_ fallback: CompiledBank, subject: String, sender: String?) -> Bool {
            fallback.subjects.contains { (try? $0.matches(subject, scratch: scratch)) == true }
                || countryCued(in: subject, first: false) != nil
                || sender.map { countryCued(in: $0, first: false) != nil } == true
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
        /// Fallback files are never candidates.
        func route(_ message: Message) -> Route {
            if let sender = message.sender {
                let banks = banks(forSender: sender)
                if !banks.isEmpty { return Route(banks: banks, bySender: true) }
            }
            var detected: [Int] = []
            var undetectable: [Int] = []
            // The text is scanned once for every bank's `detect` literals, and a pattern whose
            // literals it lacks is not tried: a text from an unknown sender met each bank's patterns.
            let screened = !rules.detectScreen.isEmpty
            if screened { rules.detectScreen.screen(message.text, into: &literalStarts) }
            for (index, bank) in rules.banks.enumerated() where !bank.isFallback {
                if bank.detect.isEmpty {
                    undetectable.append(index)
                    continue
                }
                let offset = rules.detectOffsets[index]
                if bank.detect.indices.contains(where: { number in
                    if screened, literalStarts[offset + number] < 0 { return false }
                    return (try? bank.detect[number].matches(message.text, scratch: scratch)) == true
                }) {
                    detected.append(index)
                }
            }
            return Route(banks: detected + undetectable, bySender: false, detected: detected)
        }

        /// The id of `bank`'s ignore rule that ignores `text`, advice to the reader set aside (the
        /// field layer's `advice`): an alert whose safety footer says "Never share your card
        /// number, CVV, PIN, OTP with anyone" is no OTP message. Advice is looked for only once a
        /// rule matched the whole text, which most messages' do not.
        func ignoringRule(of bank: CompiledBank, in text: String, screened: [Int] = []) -> String? {
            guard let id = bank.ignoringRule(text, scratch: scratch, screened: screened) else { return nil }
            guard let layer = rules.fieldLayer, !layer.advice.isEmpty else { return id }
            // Once per message: a bank's rules and then the fallback's may both ask (a cached text
            // is the same string, compared by its storage first).
            if unadvised?.text != text { unadvised = (text, layer.withoutAdvice(text, scratch: scratch)) }
            guard let withoutAdvice = unadvised?.withoutAdvice else { return id }
            return bank.ignoringRule(withoutAdvice, scratch: scratch)
        }

        /// The last text `ignoringRule(of:in:)` set advice aside in, and the result.
        private var unadvised: (text: String, withoutAdvice: String?)?

        /// One bank's pipeline: subject filter, ignore rules, parsers. nil when nothing matched.
        /// `owner` is the bank the transaction is recorded for (the bank itself, or the bank a
        /// fallback file reads on behalf of): its id and normalization defaults are used.
        func parse(_ message: Message, bank: CompiledBank, source: BankSource, as owner: CompiledBank,
                   filterSubjects: Bool = true, doubts: Confidence = Confidence(),
                   recognizingFormats: Bool = false) -> ParseOutcome? {
            // A fallback reads a person's message ("I paid Rs 200 for dinner") only on behalf of a
            // bank its text names.
            if bank.isFallback, owner === bank, bank.isPersonalSender(message.sender, scratch: scratch) { return nil }
            if filterSubjects, source == .sender, let subject = message.subject, !bank.subjects.isEmpty,
               !bank.subjects.contains(where: { (try? $0.matches(subject, scratch: scratch)) == true }) {
                return .ignored(rule: "\(bank.id).subjects", bank: bank.id)
            }
            // The bank's ignore and parser literals, scanned for once (`CompiledBank.screen`).
            if bank.screen.isEmpty {
                bankScreened.removeAll(keepingCapacity: true)
            } else {
                bank.screen.screen(message.text, into: &bankScreened)
            }
            if let id = ignoringRule(of: bank, in: message.text, screened: bankScreened) {
                return .ignored(rule: id, bank: bank.id)
            }
            guard recognizingFormats else { return runParsers(message, bank: bank, source: source, as: owner, doubts: doubts) }
            // A fallback's ignore rules passed: another bank's format may read it, when the
            // fallback's own parsers saw money move (one of their gates matched: a bank's format
            // names its operation in words the fallback knows, and a message that names none is
            // spared trying every format). The format's reading wins unless the fallback's read more
            // of the message's fields (a format written for one bank's wording may leave out what
            // the field layer and the fallback find: the reference, the date).
            let withoutAmountBefore = withoutAmount.count
            let own = runParsers(message, bank: bank, source: source, as: owner, doubts: doubts)
            if case .matchLimit = own { return own }
            guard own != nil || withoutAmount.count > withoutAmountBefore,
                  let recognized = recognizeFormat(message, fallback: bank, owner: owner, source: source, doubts: doubts)
            else { return own }
            if let ownTransaction = own?.transaction, let transaction = recognized.transaction,
               ownTransaction.fieldCount > transaction.fieldCount {
                return own
            }
            return recognized
        }

        /// A bank's parsers in order: the first that finds an amount makes the transaction. Those
        /// whose literals the text lacks (`bankScreened`, the bank's screen of this message) are
        /// passed over.
        private func runParsers(_ message: Message, bank: CompiledBank, source: BankSource, as owner: CompiledBank,
                                doubts: Confidence) -> ParseOutcome? {
            for (index, parser) in bank.parsers.enumerated() where bank.mayMatch(parser: index, screened: bankScreened) {
                switch extract(parser, from: message.text) {
                case .failure(let error):
                    return .matchLimit(rule: parser.id, error: error)
                case .success(var raw?):
                    // No transaction without an amount: the next parser may find one.
                    if raw[.amount] == nil && parser.constants[.amount] == nil {
                        withoutAmount.append(parser.id)
                        continue
                    }
                    // Nor, from the fallback, with an amount of nothing: "KES.0.00 approved at GOOGLE
                    // *TEMPORARY HOLD" is a card being checked, not money moved. A bank's own parser
                    // may report one (a declined or verification record it names).
                    if bank.rules.isFallback, let amount = raw[.amount], !Self.hasNonZeroDigit(amount) {
                        withoutAmount.append(parser.id)
                        continue
                    }
                    fillFromLayer(&raw, parser: parser, text: message.text)
                    return categorized(TransactionBuilder.build(parser: parser, owner: owner, raw: raw,
                                                                message: message, source: source, policy: policy,
                                                                doubts: doubts))
                case .success(nil):
                    continue
                }
            }
            return nil
        }

        /// Whether an amount as written holds a digit other than zero ("KES.0.00", "0,00 €" do not).
        static func hasNonZeroDigit(_ amount: String) -> Bool {
            amount.unicodeScalars.contains { $0.properties.numericType == .decimal && $0.properties.numericValue != 0 }
        }

        /// Fields the parser did not capture, from the generic field layer: searched from where a
        /// one-pattern parser matched (or a little before a per-field parser's amount) to
        /// `CompiledFieldLayer.reach` bytes past its match (`reachAfterAmount` past the amount). A
        /// balance or a reference is looked for after a one-pattern parser's match only. A finder
        /// that hits a match limit finds nothing.
        /// Finders of formats other countries use (`countries:` in the layer) are skipped for the
        /// banks of other countries (`CompiledParser.layerFinders`); with no country known, every
        /// finder searches.
        func fillFromLayer(_ raw: inout FieldValues, parser: CompiledParser, text: String) {
            guard let layer = rules.fieldLayer else { return }
            let readsKind = parser.rule.kind == nil && layer.kinds != nil
            // A card's kind (credit, debit, prepaid), when its parser does not say: a parser of
            // bank accounts has no card.
            let readsCardKind = layer.cardKinds != nil && parser.rule.cardKind == nil && parser.rule.accountType != "account"
            // After the fields, which may find the mask: a card's kind is read near it.
            defer { if readsCardKind { readCardKind(&raw, text: text, layer: layer) } }
            guard readsKind || (!parser.layerFields.isEmpty && parser.layerFields.contains(where: { raw[$0] == nil })) else { return }
            // The finders search the window only: searching the whole text from the match on cost a
            // scan of every long e-mail body per finder. The text before the window is seen as
            // context (`^` is the text's start, `\b` sees the character before) but not searched.
            // A one-pattern parser's window starts where it matched; a per-field parser's (whose
            // span is its amount) a little before the amount, where "A/c XX1234 debited" puts the mask.
            // It ends `reach` bytes past the match (`reachAfterAmount` past the amount), and is at
            // most `maxWindow` long: a long e-mail's footer is not where its balance is.
            let length = text.utf8.count
            let window: Range<Int>
            if let span = raw.span {
                let start = parser.matcher.isPerField
                    ? Self.boundary(in: text, before: max(0, span.lowerBound - CompiledFieldLayer.reachBefore))
                    : span.lowerBound
                let reach = parser.matcher.isPerField ? CompiledFieldLayer.reachAfterAmount : CompiledFieldLayer.reach
                var end = Self.boundary(in: text, before: min(length, span.upperBound + reach, start + CompiledFieldLayer.maxWindow))
                // After a one-pattern parser's sentence, its paragraph and the next one: "Avl Bal"
                // in the same paragraph or in one of its own below, not a footer's after them.
                if !parser.matcher.isPerField { end = Self.endOfNextParagraph(in: text, from: span.upperBound, upTo: end) }
                window = start..<max(start, end)
            } else {
                window = 0..<Self.boundary(in: text, before: min(length, CompiledFieldLayer.reach))
            }
            // A parser that names no kind (the fallback's, a bank's that reads several operations):
            // the first the window's words name, in the layer's order ("refund", "reversal", "salary").
            if readsKind, let kinds = layer.kinds { raw.kind = kinds.firstInOrder(text, window, scratch: scratch) }
            // Every finder's value holds a digit (a balance, a reference, a mask): where the searched
            // text has none, none can match, and the scans are skipped. The window's last byte that
            // may be a digit (an ASCII digit, or a byte of another script, which may be a digit of
            // that script) is found once, from the end, where a date or an amount usually is.
            let lastDigit = Self.lastPossibleDigit(text, window)
            for (index, field) in parser.layerFields.enumerated() where raw[field] == nil {
                if field == .channel, let channels = layer.channels {
                    // The first channel in the layer's order: a rail (UPI) before the card that carries it.
                    raw[.channel] = channels.firstInOrder(text, window, scratch: scratch)
                    continue
                }
                let finders = parser.layerFinders[index]
                if finders.isEmpty { continue }
                // A balance or a reference follows the sentence a one-pattern parser matched ("...at
                // AMAZON on 12-11-26. Avl Bal Rs 5,000"): they are looked for after its match, the
                // account or card mask within it ("debited from A/c XX1234").
                let from = (field == .balance || field == .reference) && !parser.matcher.isPerField
                    ? raw.span.map { min($0.upperBound, window.upperBound) } ?? window.lowerBound : window.lowerBound
                guard let lastDigit, lastDigit >= from else { continue }
                for finder in finders {
                    if let whole = try? finder.pattern.firstRange(in: text, from: from, upTo: window.upperBound, scratch: scratch) {
                        let range = scratch.lastGroup(finder.group) ?? whole
                        raw.set(field, Self.slice(text, range), at: range)
                        break
                    }
                }
            }
        }

        /// A card's kind, read only when the message named a card or a mask (a mask may be a
        /// card's: the builder decides, from the parser's account type and the channel). A short
        /// text (an SMS, a push) is read whole, first mention first ("Debit Card XX1234 used at
        /// ... Get a credit card today!"; "... Avl Lmt Rs 5,000"); a longer one (an e-mail) just
        /// before the mask, where its kind is named ("your credit card account ending in 4993"):
        /// the kinds' dozens of alternatives, in several scripts, leave PCRE2 no literal to skip
        /// ahead to, and reading e-mails' whole windows tripled the cost of parsing the reference corpus.
        func readCardKind(_ raw: inout FieldValues, text: String, layer: CompiledFieldLayer) {
            guard raw[.card] != nil || raw[.last4] != nil else { return }
            let length = text.utf8.count
            let range: Range<Int>
            if length <= CompiledFieldLayer.shortText {
                range = 0..<length
            } else if let mask = raw.maskStart {
                range = Self.boundary(in: text, before: max(0, mask - CompiledFieldLayer.cardKindReach))..<mask
            } else {
                return
            }
            var first = layer.cardKinds?.firstInText(text, range, scratch: scratch)
            if let others = layer.cardKindsOtherScripts,
               text.withUTF8Bytes({ NormalizingText.firstByte(in: $0, atLeast: 0x80, from: range.lowerBound).map { $0 < range.upperBound } ?? false }),
               let found = others.firstInText(text, range, scratch: scratch), found.at < first?.at ?? Int.max {
                first = found
            }
            raw.cardKind = first?.name
        }

        /// Where the paragraph after the one holding `offset` ends: the second blank line (two line
        /// feeds, blanks between them allowed) from `offset` on, or `end` when there is none
        /// before it. A one-pattern parser's balance and reference are looked for up to there: an
        /// e-mail's footer after them was a third of the layer's scanning on the reference corpus.
        static func endOfNextParagraph(in text: String, from offset: Int, upTo end: Int) -> Int {
            text.withUTF8Bytes { bytes in
                let end = min(end, bytes.count)
                guard let base = bytes.baseAddress, offset < end else { return end }
                var index = offset
                var breaks = 0
                // Line feed to line feed with memchr: a byte at a time, this was a tenth of the
                // layer's cost on the reference corpus.
                while index < end, let found = memchr(base + index, 0x0A, end - index) {
                    index = found.assumingMemoryBound(to: UInt8.self) - UnsafeMutablePointer(mutating: base)
                    // A line feed: a blank line follows when only blanks come before the next one.
                    var next = index + 1
                    while next < end, bytes[next] == 0x20 || bytes[next] == 0x09 || bytes[next] == 0x0D { next += 1 }
                    guard next < end, bytes[next] == 0x0A else {
                        index = next
                        continue
                    }
                    breaks += 1
                    if breaks == 2 { return index }
                    // The blank lines between the paragraphs are one break.
                    index = next
                    while index < end, bytes[index] == 0x0A || bytes[index] == 0x20 || bytes[index] == 0x09 || bytes[index] == 0x0D {
                        index += 1
                    }
                }
                return end
            }
        }

        /// The offset of the last byte in `range` of `text` that is an ASCII digit or a byte of
        /// another script (which may be a digit of that script); nil when there is none.
        static func lastPossibleDigit(_ text: String, _ range: Range<Int>) -> Int? {
            text.withUTF8Bytes { bytes in
                var index = min(range.upperBound, bytes.count)
                while index > range.lowerBound {
                    index -= 1
                    let byte = bytes[index]
                    if byte &- 0x30 < 10 || byte >= 0x80 { return index }
                }
                return nil
            }
        }

        /// The offset of the character after the one starting at `offset`: the text's length after
        /// its last character, one past it when `offset` is the text's end.
        static func boundary(in text: String, after offset: Int) -> Int {
            text.withUTF8Bytes { bytes in
                var index = offset + 1
                while index < bytes.count, bytes[index] & 0xC0 == 0x80 { index += 1 }
                return index
            }
        }

        /// The largest UTF-8 offset at or before `offset` that starts a character.
        static func boundary(in text: String, before offset: Int) -> Int {
            text.withUTF8Bytes { bytes in
                var index = min(offset, bytes.count)
                while index > 0, index < bytes.count, bytes[index] & 0xC0 == 0x80 { index -= 1 }
                return index
            }
        }

        /// The role (other than the amount) of the money mention starting at `offset`, from the words
        /// just before it: "Avl Bal", "Balance:", "limit", "fee". nil when it has none.
        func role(before offset: Int, in text: String, roles: [(name: String, pattern: Pattern)]) -> String? {
            let start = max(0, offset - CompiledFieldLayer.roleWindow)
            guard offset > start else { return nil }
            let before = Self.slice(text, start..<offset)
            return roles.first { (try? $0.pattern.matches(before, scratch: scratch)) == true }?.name
        }

        /// `text.utf8Slice(range)`, reading the bytes in place: `utf8Slice` copies the string to
        /// reach them (a retain and a release), for every field of every message.
        private static func slice(_ text: String, _ range: Range<Int>) -> String {
            text.withUTF8Bytes { String(decoding: UnsafeBufferPointer(rebasing: $0[range]), as: UTF8.self) }
        }

        /// Whether the parser's `unless` finds its pattern in `text`, or its `unless_amount` finds
        /// money that no field layer role claims (one that could be the amount).
        func standsAside(_ parser: CompiledParser, from text: String) throws(MatchError) -> Bool {
            if let unless = parser.unless, try unless.matches(text, scratch: scratch) { return true }
            guard let unlessAmount = parser.unlessAmount else { return false }
            let roles = rules.fieldLayer?.roles ?? []
            var offset = 0
            while let match = try unlessAmount.firstMatch(in: text, from: offset, scratch: scratch), let whole = match[0] {
                if roles.isEmpty || role(before: whole.lowerBound, in: text, roles: roles) == nil { return true }
                offset = max(whole.upperBound, whole.lowerBound + 1)
            }
            return false
        }

        /// The raw text of each field the parser finds, or nil when it does not match.
        func extract(_ parser: CompiledParser, from text: String) -> Result<FieldValues?, MatchError> {
            do {
                switch parser.matcher {
                case .single(let pattern, let groups):
                    guard let match = try pattern.firstMatch(in: text, scratch: scratch) else { return .success(nil) }
                    if try standsAside(parser, from: text) { return .success(nil) }
                    var raw = FieldValues()
                    raw.span = match[0]
                    for (field, numbers) in groups {
                        if let range = numbers.lazy.compactMap({ match[$0] }).first {
                            raw.set(field, Self.slice(text, range), at: range)
                        }
                    }
                    return .success(raw)
                case .perField(let gate, let fields):
                    if let gate, try !gate.matches(text, scratch: scratch) { return .success(nil) }
                    if try standsAside(parser, from: text) { return .success(nil) }
                    var raw = FieldValues()
                    for (name, pattern, groups) in fields {
                        if name == .amount, let roles = rules.fieldLayer?.roles, !roles.isEmpty {
                            // The first money mention that is not a balance, a limit or a fee.
                            var offset = 0
                            while let match = try pattern.firstMatch(in: text, from: offset, scratch: scratch),
                                  let whole = match[0], let range = groups.lazy.compactMap({ match[$0] }).first ?? match[0] {
                                if role(before: whole.lowerBound, in: text, roles: roles) == nil {
                                    raw[.amount] = Self.slice(text, range)
                                    raw.span = range
                                    break
                                }
                                offset = max(whole.upperBound, whole.lowerBound + 1)
                            }
                            continue
                        }
                        if let match = try pattern.firstMatch(in: text, scratch: scratch),
                           let range = groups.lazy.compactMap({ match[$0] }).first ?? match[0] {
                            raw.set(name, Self.slice(text, range), at: range)
                            if name == .amount { raw.span = range }
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

/// The candidate banks for a message, in the order they are tried.
struct Route {
    /// Indices into `CompiledRuleSet.banks`.
    var banks: [Int]
    /// Whether the sender named them (else the text's `detect` patterns, then banks without any).
    var bySender: Bool
    /// The banks whose `detect` patterns matched, when routed by text.
    var detected: [Int] = []
}

/// Where the bank of a transaction came from; part of its confidence.
enum BankSource {
    /// The sender is one of the bank's `senders` (or a rule test names the bank).
    case sender
    /// The bank's `detect` patterns recognised the text.
    case text
    /// No bank was recognised: a fallback file read the message alone.
    case none
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
