import Foundation
import PCRE2
import SpendlexRules

/// What `spendlex suggest` asks for beyond the messages.
public struct SuggestOptions: Sendable {
    /// The bank id to use; guessed from the senders when nil.
    public var bankID: String?
    /// The display name; the id in upper case when nil.
    public var bankName: String?
    /// ISO 3166-1 alpha-2 country; guessed from the currency when nil.
    public var country: String?
    /// Examples written per draft.
    public var examplesPerDraft: Int

    /// Creates options.
    public init(bankID: String? = nil, bankName: String? = nil, country: String? = nil, examplesPerDraft: Int = 3) {
        self.bankID = bankID
        self.bankName = bankName
        self.country = country.map { $0.uppercased() }
        self.examplesPerDraft = examplesPerDraft
    }
}

/// The result of drafting: a bank file and what happened to each message.
public struct RuleSuggestion: Sendable {
    /// The drafted bank's header.
    public var bank: DraftBank
    /// The drafted parsers, most messages first, with examples whose `expect` the draft passes.
    public var parsers: [DraftParser]
    /// The bank file; nil when no message could be drafted.
    public var yaml: String?
    /// One line per message skipped or not drafted, and per draft dropped, for stderr.
    public var notes: [String]
    /// The drafted file's own test run (`RuleTestRunner.run`): all examples pass.
    public var testReport: RuleTestReport?
    /// For every message a written draft was made from, what the draft extracts from it.
    public var extractions: [DraftExtraction] = []
}

/// What a draft extracts from one of the messages it was made from, for the user to check.
public struct DraftExtraction: Sendable {
    /// The message's id.
    public var messageID: String
    /// The draft parser that read it; nil when none of the bank's drafts does.
    public var parser: String?
    /// The fields extracted, in the order examples list them (card numbers masked).
    public var fields: [(field: ExpectedField, value: String)]
}

/// Drafts parsers for messages no parser reads: generalizes each message into a pattern from
/// the loaded grammars, groups messages one pattern serves, compiles each draft with the real
/// engine, fills the examples' `expect` from what it extracts, and checks the whole file with
/// `RuleTestRunner`. A draft that fails falls back to fewer captured fields; one that still
/// fails is left out, never written broken.
public struct RuleSuggester {
    /// The loaded rules: messages they already read are skipped; their grammars are used.
    public let engine: RuleEngine
    /// Bank id, name and country.
    public let options: SuggestOptions

    /// Creates a suggester over loaded rules.
    public init(engine: RuleEngine, options: SuggestOptions = SuggestOptions()) {
        self.engine = engine
        self.options = options
    }

    /// Drafts a bank file for the messages. `baseline`: the loaded rules' own test run, when
    /// the caller has it (drafts must not change any of its results); run here when nil.
    public func suggest(_ messages: [Message], baseline: RuleTestReport? = nil) -> RuleSuggestion {
        var baseline = baseline
        var notes: [String] = []
        let worker = engine.makeWorker()
        let generalizer = PatternGeneralizer(fragments: engine.rules.rules.fragments, country: options.country)
        var pending: [(Message, GeneralizedMessage)] = []
        let fallbacks = engine.rules.banks.filter(\.isFallback)
        let scratch = MatchScratch()
        let fallbackParsers = Set(fallbacks.flatMap { $0.parsers.map(\.id) })
        for original in messages {
            var message = original
            message.text = CardNumberMasker.mask(original.text)
            let outcome = worker.parse(message)
            switch outcome {
            case .transaction(let transaction) where transaction.confidenceParts.contains(.fallbackParser)
                || transaction.confidenceParts.contains(.anotherBanksFormat):
                break  // read only by the fallback, or with another bank's format: what a parser should take over
            case .transaction(let transaction):
                notes.append("message \(message.id): already parsed by \(transaction.rule); skipped")
                continue
            case .ignored(let rule, _):
                notes.append("message \(message.id): ignored by \(rule); skipped")
                continue
            // (`where` belongs to one pattern: written once, a fallback's failure was skipped too.)
            case .failed(let rule, _, _) where !fallbackParsers.contains(rule),
                 .matchLimit(let rule, _) where !fallbackParsers.contains(rule):
                notes.append("message \(message.id): matched by \(rule), which fails on it (\(outcome.reason)); fix that parser instead")
                continue
            case .unmatched, .failed, .matchLimit:
                break
            }
            guard let generalized = generalizer.generalize(message.text) else {
                notes.append("message \(message.id): no amount with a currency found; skipped")
                continue
            }
            let sender = SenderKind.classify(message, personalSender: fallbacks.contains {
                $0.isPersonalSender(message.sender, scratch: scratch)
            })
            if sender.kind.isRefused {
                notes.append("message \(message.id): refused, \(sender.reason ?? sender.kind.rawValue); skipped")
                continue
            }
            pending.append((message, generalized))
        }

        var bank = DraftBankGuess.bank(for: pending, options: options)
        if options.bankID == nil, engine.rules.bank(id: bank.id) != nil {
            notes.append("a loaded bank file has the id \(bank.id) but reads none of these messages: drafted as \(bank.id)-new (or fix that bank's file)")
            bank.id += "-new"
        }
        let compiler = DraftCompiler(fragments: engine.rules.rules.fragments, sources: engine.rules.rules.sources)
        var grouping = DraftGrouping(bank: bank, compiler: compiler)
        for (message, generalized) in pending {
            grouping.add(message, generalized: generalized)
        }
        for message in grouping.undrafted {
            notes.append("message \(message.id): no draft pattern compiled and read it; skipped")
        }
        let groups = grouping.groups.enumerated()
            .sorted { ($1.element.members.count, $0.offset) < ($0.element.members.count, $1.offset) }
            .map(\.element)
        var parsers = Self.parsers(for: groups, bank: bank)
        var result = RuleSuggestion(bank: bank, parsers: [], yaml: nil, notes: notes, testReport: nil)
        // Fill the examples from the whole file (an earlier draft may take a later one's
        // example), then check the file as `spendlex test` would; drop what fails. Then check it
        // beside the loaded rules; a narrowed or smaller draft goes round again.
        for _ in 0..<6 where !parsers.isEmpty {
            let (engine, errors) = compiler.compile(DraftWriter.write(bank, parsers: parsers))
            guard errors.isEmpty else {
                result.notes.append("the drafted file did not compile (\(errors[0].message)); nothing written")
                return result
            }
            let filled = DraftCompiler.fillExpectations(parsers, engine: engine, bankID: bank.id,
                                                        limit: options.examplesPerDraft)
            let emptied = filled.filter { $0.examples.isEmpty }
            parsers = filled.filter { !$0.examples.isEmpty }
            for parser in emptied {
                result.notes.append("draft \(parser.id) dropped: an earlier draft reads its messages")
            }
            if !emptied.isEmpty { continue }
            let yaml = DraftWriter.write(bank, parsers: parsers)
            let (checked, checkErrors) = compiler.compile(yaml)
            let report = RuleTestRunner.run(checked)
            if checkErrors.isEmpty && report.failed == 0 {
                let before = baseline ?? RuleTestRunner.run(self.engine)
                baseline = before
                let check = ExistingExamplesCheck(engine: self.engine, baseline: before)
                if let broken = check.firstBroken(yaml) {
                    // Narrowed with `detect` when that is enough, else the offending parsers dropped.
                    let memberIDs = Set(parsers.flatMap(\.members).map(\.id))
                    let amounts = pending.filter { memberIDs.contains($0.0.id) }.compactMap { $0.1.slot(for: .amount)?.raw }
                    if let narrowed = check.narrowed(bank, parsers: parsers, amounts: amounts) {
                        result.notes.append("the draft took \(broken), routed by its text: detect \(narrowed.detect[0]) added, so that it reads only messages that match it")
                        bank = narrowed
                        result.bank = bank
                        continue
                    }
                    let (kept, dropped) = check.parsersKeepingResults(parsers, bank: bank, broken: broken)
                    for (id, broken) in dropped {
                        result.notes.append("draft \(id) dropped: it changes the result of \(broken)")
                    }
                    parsers = kept
                    continue
                }
                result.parsers = parsers
                result.yaml = yaml
                result.testReport = report
                result.extractions = Self.extractions(parsers, engine: checked, bankID: bank.id)
                return result
            }
            let failing = Set(parsers.map(\.id).filter { RuleTestRunner.run(checked, only: $0).failed > 0 })
            for id in failing.sorted() { result.notes.append("draft \(id) dropped: its examples did not pass") }
            parsers.removeAll { failing.contains($0.id) || !checkErrors.isEmpty }
        }
        return result
    }

    /// What the final draft extracts from every message of every parser's group.
    static func extractions(_ parsers: [DraftParser], engine: RuleEngine, bankID: String) -> [DraftExtraction] {
        let worker = engine.makeWorker()
        return parsers.flatMap { parser in
            parser.members.map { message in
                guard let transaction = worker.parse(message, asBank: bankID).transaction else {
                    return DraftExtraction(messageID: message.id, parser: nil, fields: [])
                }
                return DraftExtraction(messageID: message.id, parser: transaction.rule,
                                       fields: DraftCompiler.expectedFields.compactMap { field in
                                           RuleTestRunner.value(of: field, in: transaction).map { (field, $0) }
                                       })
            }
        }
    }

    /// One parser per group, with unique ids and the group's first distinct texts as candidate examples.
    static func parsers(for groups: [DraftGroup], bank: DraftBank) -> [DraftParser] {
        var used: Set<String> = []
        return groups.map { group in
            let g = group.generalized
            var base = bank.id + "." + parserName(g)
            if used.contains(base) {
                var number = 2
                while used.contains("\(base).\(number)") { number += 1 }
                base = "\(base).\(number)"
            }
            used.insert(base)
            var texts: Set<String> = []
            let candidates = group.members.filter { texts.insert($0.text).inserted }.prefix(10)
            return DraftParser(id: base, direction: g.direction, kind: g.kind, channel: g.channel,
                               accountType: group.captured.contains(.last4) ? g.accountType : nil,
                               pattern: group.pattern, covers: group.members.count,
                               examples: candidates.map { DraftExample(message: $0, expect: []) },
                               members: group.members)
        }
    }

    /// `card.spend`, `upi.debit`, `refund`, `transaction`: channel, then kind or direction.
    static func parserName(_ g: GeneralizedMessage) -> String {
        let what: String = switch (g.kind, g.direction) {
        case (.purchase?, _): "spend"
        case (let kind?, _): kind.rawValue.replacingOccurrences(of: "_", with: "-")
        case (nil, let direction?): direction.rawValue
        case (nil, nil): "transaction"
        }
        return g.channel.map { "\($0).\(what)" } ?? what
    }
}

/// The header of a drafted bank file, guessed from the messages where not given.
enum DraftBankGuess {
    /// The countries of currencies that belong to one country.
    static let countryOfCurrency: [String: String] = [
        "INR": "IN", "IDR": "ID", "USD": "US", "GBP": "GB", "JPY": "JP", "BRL": "BR", "CAD": "CA", "AUD": "AU",
        "SGD": "SG", "AED": "AE", "CHF": "CH", "MXN": "MX", "ZAR": "ZA", "NZD": "NZ", "HKD": "HK", "MYR": "MY",
        "THB": "TH", "PHP": "PH", "SEK": "SE", "NOK": "NO", "DKK": "DK", "PLN": "PL", "TRY": "TR", "NGN": "NG",
        "KES": "KE", "SAR": "SA", "QAR": "QA", "KRW": "KR", "CNY": "CN", "VND": "VN", "PKR": "PK", "LKR": "LK",
    ]

    static func bank(for messages: [(Message, GeneralizedMessage)], options: SuggestOptions) -> DraftBank {
        var notes: [String] = []
        let senders = messages.compactMap { $0.0.sender?.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        var id = options.bankID
        if id == nil, let common = mostCommon(senders.compactMap(bankID(fromSender:))) {
            id = common
            notes.append("id guessed from the senders; change it with --bank-id")
        }
        let resolvedID = id ?? "newbank"
        let name = options.bankName ?? (resolvedID == "newbank" ? "New Bank" : resolvedID.uppercased())
        let currency = mostCommon(messages.compactMap { $0.1.currency })
            ?? options.country.flatMap(CurrencyNormalizer.defaultCode(forCountry:))
        var country = options.country
        if country == nil, let currency, let guessed = countryOfCurrency[currency] {
            country = guessed
            notes.append("country guessed from the currency; change it with --country")
        }
        var patterns: [String] = []
        for sender in senders {
            let pattern = senderPattern(sender)
            if !patterns.contains(pattern) { patterns.append(pattern) }
        }
        return DraftBank(id: resolvedID, name: name, country: country, currency: currency,
                         senders: patterns, notes: notes)
    }

    /// `VM-HDFCBK` → `hdfcbk`; `alerts@mail.bankofireland.co.uk` → `bankofireland`;
    /// `com.phonepe.app` → `phonepe`.
    static func bankID(fromSender sender: String) -> String? {
        let lower = sender.lowercased()
        var candidate: String
        if let at = lower.lastIndex(of: "@") {
            let generic: Set<String> = ["com", "co", "net", "org", "ac", "gov", "edu", "bank", "mail", "email",
                                        "alerts", "alert", "info", "notify", "notifications"]
            var labels = lower[lower.index(after: at)...].split(separator: ".").map(String.init)
            if labels.count > 1 { labels.removeLast() }
            while labels.count > 1, let last = labels.last, generic.contains(last) || last.count == 2 {
                labels.removeLast()
            }
            candidate = labels.last ?? ""
        } else if isPackageName(lower) {
            // An app's package name (`com.phonepe.app`, `in.amazon.mShop.android.shopping`): its
            // second label names the organisation.
            candidate = String(lower.split(separator: ".")[1])
        } else {
            let parts: [Substring] = lower.split(separator: "-")
            candidate = parts.max { $0.count < $1.count }.map(String.init) ?? lower
        }
        candidate = String(candidate.unicodeScalars.filter { ("a"..."z").contains($0) || ("0"..."9").contains($0) })
        guard candidate.count >= 2, candidate.unicodeScalars.contains(where: { ("a"..."z").contains($0) }) else {
            return nil
        }
        return candidate
    }

    /// Whether a sender is an app's package name: dot-separated labels of letters, digits and
    /// `_`, the first a top-level domain of two or three letters.
    static func isPackageName(_ sender: String) -> Bool {
        let labels = sender.split(separator: ".", omittingEmptySubsequences: false)
        return labels.count >= 2 && (2...3).contains(labels[0].count) && labels[0].allSatisfy(\.isLetter)
            && labels.allSatisfy { !$0.isEmpty && $0.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" } }
    }

    /// SMS ids with an operator prefix (`VM-HDFCBK`) as `*-HDFCBK`; others as they are.
    static func senderPattern(_ sender: String) -> String {
        let parts = sender.split(separator: "-" as Character, maxSplits: 1)
        if parts.count == 2, parts[0].count == 2, parts[0].allSatisfy({ $0.isLetter && $0.isUppercase }) {
            return "*-" + parts[1]
        }
        return sender
    }

    /// The most frequent value, the first seen on a tie.
    static func mostCommon(_ values: [String]) -> String? {
        var counts: [String: Int] = [:]
        for value in values { counts[value, default: 0] += 1 }
        var best: String?
        var bestCount = 0
        for value in values where counts[value, default: 0] > bestCount {
            best = value
            bestCount = counts[value, default: 0]
        }
        return best
    }
}
