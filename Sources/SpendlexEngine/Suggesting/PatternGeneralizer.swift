import Foundation
import PCRE2
import SpendlexRules

/// Finds, in a message no parser reads, the spans the loaded grammars recognise (money, dates,
/// times, account masks, payment addresses, references) and a merchant after words such as
/// "at", "bei" or "di", and makes a `GeneralizedMessage` of it: the start of a draft parser.
///
/// Every span is checked with the engine's own normalizers (an amount must read as an amount,
/// a date as a real date), so that a draft captures only what the engine can use.
public struct PatternGeneralizer {
    /// A grammar fragment compiled for searching: bounded so that it never starts or ends
    /// inside a word or a number.
    struct Finder {
        let name: String
        let pattern: Pattern
    }

    private let money: [(finder: Finder, form: GeneralizedMessage.Slot.Form)]
    private let dates: [Finder]
    private let time: Finder?
    private let vpa: Finder?
    private let accountMask: Finder?
    private let reference: Finder?
    private let country: String?
    private let amountNormalizer: AmountNormalizer
    private let dateNormalizer: DateNormalizer
    private let scratch = MatchScratch()

    /// A generalizer over the fragments of the loaded grammar files. Fragments it does not
    /// find (a rule set with other grammars) are simply not recognised. `country` (ISO 3166-1
    /// alpha-2) resolves `$` and the order of numeric dates.
    public init(fragments: [GrammarFragment], country: String?) {
        var expander = GrammarExpander(fragments: fragments)
        func finder(_ name: String, body: String? = nil) -> Finder? {
            guard let expanded = body ?? expander.expandFragment(name, stack: []) else { return nil }
            let bounded = "(?<![\\p{L}\\p{N}])(?:\(expanded))(?![\\p{L}\\p{N}])"
            return (try? Pattern(bounded)).map { Finder(name: name, pattern: $0) }
        }
        var money: [(Finder, GeneralizedMessage.Slot.Form)] = []
        for name in ["MONEY", "AMOUNT_INR"] {
            if let found = finder(name) { money.append((found, .grammar(name))) }
        }
        if let amount = expander.expandFragment("AMOUNT", stack: []),
           let currency = expander.expandFragment("CURRENCY", stack: []),
           let found = finder("AMOUNT CURRENCY", body: "(?:\(amount))\\s?(?:\(currency))") {
            money.append((found, .amountThenCurrency(amount: "AMOUNT", currency: "CURRENCY")))
        }
        self.money = money
        self.dates = ["DATE_YMD", "DATE_NUMERIC", "DATE_DAY_MONTH", "DATE_MONTH_DAY"].compactMap { finder($0) }
        self.time = finder("TIME")
        self.vpa = finder("VPA")
        self.accountMask = finder("ACCOUNT_MASK")
        self.reference = finder("REFERENCE")
        self.country = country
        self.amountNormalizer = AmountNormalizer(country: country)
        // Only a `format` can make the initializer throw, and none is given.
        self.dateNormalizer = try! DateNormalizer(order: DateOrder.forCountry(country))
    }

    /// Generalizes one message. nil when it has no amount with a currency, which every draft needs.
    public func generalize(_ text: String) -> GeneralizedMessage? {
        let bytes = Array(text.utf8)
        var slots: [GeneralizedMessage.Slot] = []
        func isFree(_ range: Range<Int>) -> Bool {
            !slots.contains { $0.range.overlaps(range) }
        }
        func claim(_ form: GeneralizedMessage.Slot.Form, _ field: FieldName?, _ range: Range<Int>) {
            slots.append(.init(form: form, field: field, range: range, raw: Self.string(bytes, range)))
        }

        // Money first: the amount is what every parser needs, and it decides where the tail starts.
        var amountCurrency: String?
        var sawAmount = false, sawBalance = false
        for (range, form) in leftmostLongest(money.map { ($0.finder, $0.form) }, in: bytes) {
            let raw = Self.string(bytes, range)
            guard let parsed = try? amountNormalizer.normalize(raw) else { continue }
            let isBalance = follows(Cue.balance, before: range.lowerBound, in: bytes, window: 40)
            var field: FieldName?
            if isBalance && !sawBalance && sawAmount {
                field = .balance
                sawBalance = true
            } else if !sawAmount && !isBalance {
                field = .amount
                sawAmount = true
                amountCurrency = parsed.currency
            }
            claim(form, field, range)
        }
        guard sawAmount, let amountSlot = slots.first(where: { $0.field == .amount }) else { return nil }
        let end = tailStart(in: bytes, after: amountSlot.range.upperBound)
        let body = Array(bytes[..<end])

        var sawDate = false
        for (range, form) in leftmostLongest(dates.map { ($0, .grammar($0.name)) }, in: body) where isFree(range) {
            guard (try? dateNormalizer.normalize(Self.string(bytes, range), reference: nil)) != nil else { continue }
            claim(form, sawDate ? nil : .date, range)
            sawDate = true
        }
        if let time {
            var sawTime = false
            for range in matches(of: time, in: body) where isFree(range) {
                let raw = Self.string(bytes, range)
                // "12.50" is more often a number than a time; a time needs a colon or am/pm.
                guard raw.contains(":") || raw.lowercased().hasSuffix("m"),
                      (try? TimeNormalizer.normalize(raw)) != nil else { continue }
                claim(.grammar(time.name), sawTime ? nil : .time, range)
                sawTime = true
            }
        }
        var vpaRanges: [Range<Int>] = []
        if let vpa {
            for range in matches(of: vpa, in: body) where isFree(range) {
                vpaRanges.append(range)
                claim(.grammar(vpa.name), nil, range)
            }
        }
        var accountType: String?
        if let accountMask {
            var sawAccount = false
            for range in matches(of: accountMask, in: body) where isFree(range) {
                let raw = Self.string(bytes, range)
                let masked = raw.unicodeScalars.contains { "Xx*•".unicodeScalars.contains($0) }
                guard masked || follows(Cue.account, before: range.lowerBound, in: bytes, window: 24),
                      (try? AccountMask.lastDigits(raw)) != nil else { continue }
                if !sawAccount {
                    accountType = follows(Cue.card, before: range.lowerBound, in: bytes, window: 40) ? "card" : "account"
                }
                claim(.grammar(accountMask.name), sawAccount ? nil : .last4, range)
                sawAccount = true
            }
        }
        if let reference {
            var sawReference = false
            for range in matches(of: reference, in: body) where isFree(range) {
                let raw = Self.string(bytes, range)
                guard raw.utf8.contains(where: PatternLiteral.isDigit),
                      follows(Cue.reference, before: range.lowerBound, in: bytes, window: 30) else { continue }
                claim(.grammar(reference.name), sawReference ? nil : .reference, range)
                sawReference = true
            }
        }
        slots.sort { $0.range.lowerBound < $1.range.lowerBound }
        if let merchant = MerchantFinder.find(in: bytes, end: end, slots: slots, vpas: vpaRanges) {
            slots.removeAll { $0.range == merchant.range }
            slots.append(merchant)
            slots.sort { $0.range.lowerBound < $1.range.lowerBound }
        }

        var result = GeneralizedMessage(text: text, slots: slots, start: patternStart(in: bytes, before: slots[0].range.lowerBound))
        let guess = TransactionWordGuess(text: Self.string(bytes, 0..<end),
                                         merchantCue: slots.first { $0.field == .merchant }.flatMap { MerchantFinder.cue(before: $0.range.lowerBound, in: bytes) })
        result.direction = guess.direction
        result.kind = guess.kind
        result.channel = guess.channel
        result.accountType = result.fields.contains(.last4) ? (accountType ?? (guess.channel == "card" ? "card" : "account")) : nil
        result.currency = amountCurrency
        return result
    }

    // MARK: - Searching

    /// Every non-overlapping match of one finder, left to right.
    private func matches(of finder: Finder, in bytes: [UInt8]) -> [Range<Int>] {
        var found: [Range<Int>] = []
        var offset = 0
        while offset < bytes.count, let match = try? finder.pattern.firstMatch(in: bytes, from: offset, scratch: scratch) {
            if !match.range.isEmpty { found.append(match.range) }
            offset = max(match.range.upperBound, match.range.lowerBound + 1)
        }
        return found
    }

    /// The matches of several finders, the longest where they overlap, left to right.
    private func leftmostLongest(_ finders: [(Finder, GeneralizedMessage.Slot.Form)], in bytes: [UInt8])
        -> [(Range<Int>, GeneralizedMessage.Slot.Form)] {
        var all: [(Range<Int>, GeneralizedMessage.Slot.Form)] = []
        for (finder, form) in finders {
            all += matches(of: finder, in: bytes).map { ($0, form) }
        }
        all.sort { ($0.0.lowerBound, -$0.0.count) < ($1.0.lowerBound, -$1.0.count) }
        var chosen: [(Range<Int>, GeneralizedMessage.Slot.Form)] = []
        for candidate in all where !chosen.contains(where: { $0.0.overlaps(candidate.0) }) {
            chosen.append(candidate)
        }
        return chosen
    }

    /// Where the tail of the alert starts ("Not you? Call…", "To block…"): the first tail
    /// phrase after the amount, or the end.
    private func tailStart(in bytes: [UInt8], after offset: Int) -> Int {
        guard let match = try? Cue.tail.firstMatch(in: bytes, from: offset, scratch: scratch) else { return bytes.count }
        return match.range.lowerBound
    }

    /// Where the pattern starts: at the sentence that holds the first slot, after a greeting,
    /// and at most about 60 bytes before the slot.
    private func patternStart(in bytes: [UInt8], before slotStart: Int) -> Int {
        var start = 0
        for index in 0..<slotStart where index + 1 < slotStart {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\n")
                || ((byte == UInt8(ascii: ".") || byte == UInt8(ascii: "!") || byte == UInt8(ascii: "?"))
                    && PatternLiteral.isSpace(bytes[index + 1])) {
                start = index + 1
            }
        }
        while start < slotStart && PatternLiteral.isSpace(bytes[start]) { start += 1 }
        if let greeting = try? Cue.greeting.firstMatch(in: bytes, from: start, scratch: scratch),
           greeting.range.lowerBound == start, greeting.range.upperBound <= slotStart {
            start = greeting.range.upperBound
        }
        if slotStart - start > 60 {
            start = slotStart - 60
            // Start on a word: skip the rest of the one cut, then spaces.
            while start < slotStart && !PatternLiteral.isSpace(bytes[start]) { start += 1 }
            while start < slotStart && PatternLiteral.isSpace(bytes[start]) { start += 1 }
        }
        return start
    }

    /// Whether `cue` matches the text just before `offset` (its match must end there, give or
    /// take a few separators).
    private func follows(_ cue: Pattern, before offset: Int, in bytes: [UInt8], window: Int) -> Bool {
        var from = max(0, offset - window)
        // Start on a scalar boundary.
        while from < offset && bytes[from] & 0xC0 == 0x80 { from += 1 }
        let slice = Array(bytes[from..<offset])
        return (try? cue.matches(slice, scratch: scratch)) ?? false
    }

    static func string(_ bytes: [UInt8], _ range: Range<Int>) -> String {
        String(decoding: bytes[range], as: UTF8.self)
    }
}

/// The words around slots that say what a slot is, and where an alert's tail begins.
enum Cue {
    // Constant patterns known to compile; a failure here is a programming error.
    /// Before a balance: "Avl Bal", "Available balance:", "Kontostand", "solde".
    static let balance = try! Pattern(
        #"(?i)\b(?:bal|balance|avl|avbl|available|limit|saldo|kontostand|solde|disponible)\b[^\d\p{Sc}]{0,20}$"#)
    /// Before an account or card number: "card ending in", "A/c", "Acct No."
    static let account = try! Pattern(
        #"(?i)(?:\b(?:card|ending|ending in|ending with|a/c|acct|account|ac|karte|konto|carte|compte|tarjeta|cuenta|conta|cart[aã]o|kartu|rekening)|\bno)\b[\s.:#-]*$"#)
    /// A card word near an account mask.
    static let card = try! Pattern(
        #"(?i)\b(?:card|karte|carte|tarjeta|cart[aã]o|kartu)\b"#)
    /// Before a reference: "Ref No.", "UPI Ref:", "RRN", "Txn ID".
    static let reference = try! Pattern(
        #"(?i)\b(?:ref|reference|refno|txn|transaction|trans|rrn|utr|upi|imps|neft|auth|authorization|approval|code|id|nr|referenz|r[ée]f[ée]rence|referencia|referência)\b[\s.:#/-]*(?:(?:no|number|id|nr)\b[\s.:#-]*)?$"#)
    /// Where an alert's tail begins.
    static let tail = try! Pattern(
        #"(?i)\b(?:not you|not done by you|if not (?:you|done)|if (?:this|the) (?:transaction |txn )?(?:was|is|wasn't) not|if you did not|if you didn't|call (?:us|on|at)?|helpline|customer care|to report|report (?:it|this|fraud)|to block|sms block|block (?:your|the) card|never share|do not share|don't share|nicht sie|nicht von ihnen|pas vous|si vous n|no fuiste|si no reconoce|download|visit)\b|www\.|https?://"#)
    /// A greeting ending with a comma: "Dear Customer,", "Hi Priya,".
    static let greeting = try! Pattern(
        #"(?i)(?:dear|hi|hello|hallo|liebe[rs]?|bonjour|hola|ol[áa]|halo|yth\.?)\b[^,\n]{0,40},\s*"#)
}
