import Foundation
import PCRE2
import SpendlexRules

/// The rule set compiled for matching: immutable and shared by every worker thread.
public struct CompiledRuleSet: Sendable {
    /// Banks in rule-file order, fallback files included.
    public let banks: [CompiledBank]
    private let bankByID: [String: Int]
    /// Indices (into `banks`) of the fallback files, tried when no bank's parser reads a message.
    let fallbacks: [Int]
    /// Routes a sender to candidate banks.
    let router: SenderRouter
    /// The source rule set, for diagnostics and `explain`.
    public let rules: RuleSet
    /// The decision tables of the categories files; nil when none is loaded.
    public let categorizer: Categorizer?

    /// Country profiles, with their cues and the fallback files read with their conventions.
    let countries: [CompiledCountry]
    /// The same, by ISO 3166-1 alpha-2 code (upper case).
    let countryByCode: [String: CompiledCountry]
    /// The generic field layer's finders, when one is loaded.
    let fieldLayer: CompiledFieldLayer?
    /// Each country's text cues (its banks' names, its currency's local forms), by its index into
    /// `countries`; nil for a country without any.
    let countryCues: [Pattern?]
    /// Each country's `text_cues` (its script, words of its own), by the same index: they say where
    /// a text is from, not that it names a bank. Without literals to screen for, each is searched
    /// in a text whose country is inferred.
    let countryTextCues: [Pattern?]
    /// Each country's `likely_cues`, by the same index: searched only in a text that no sender,
    /// cue or text cue places.
    let countryLikelyCues: [Pattern?]
    /// The cues' literals: a text is searched only for the cues of the countries whose literals it
    /// holds. One alternation of every country's cues took 28 µs per text (PCRE2 tried each of
    /// hundreds of names at every letter), more than the rest of an SMS's parse.
    let countryCueScreen: LiteralScreen
    /// Every bank's `detect` patterns' literals (`LiteralScreen`), searched for together: a
    /// message from a sender no bank names is scanned once, and only the patterns whose literals
    /// it holds are tried (each bank's patterns from `detectOffsets[bank]`, in bank order).
    let detectScreen: LiteralScreen
    /// Where each bank's `detect` patterns start among the screen's patterns.
    let detectOffsets: [Int]
    /// Format recognition: the bank parsers a message is tried with before the fallback's parsers
    /// when its sender names no bank, or its bank's parsers all failed, as indices (into `banks`,
    /// into the bank's `parsers`), in bank order: the parsers with a pattern or a gate. Only those
    /// whose literals `formatScreen` finds in the text are tried (one without literals never is:
    /// it would be tried on every message).
    let formats: [(bank: Int, parser: Int)]
    /// The literals of `formats`' patterns, searched for together.
    let formatScreen: LiteralScreen

    init(banks: [CompiledBank], router: SenderRouter, rules: RuleSet, categorizer: Categorizer? = nil,
         countries: [CompiledCountry] = [], countryCues: [String?] = [], countryTextCues: [String?] = [],
         countryLikelyCues: [String?] = [],
         fieldLayer: CompiledFieldLayer? = nil,
         literals: FragmentLiterals = FragmentLiterals(fragments: [:])) {
        self.banks = banks
        // Looked up for every example a check or a test runs: a search of 1,000 banks' ids each time
        // was a twentieth of checking them.
        bankByID = Dictionary(banks.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
        // A cue that does not compile on its own compiled nowhere (each is checked when its
        // profile is compiled): it names nothing.
        func compiled(_ cues: [String?]) -> [Pattern?] {
            cues.map { cue in cue.flatMap { try? Pattern("(?:\($0))", options: .duplicateNames, jit: .onFirstMatch) } }
        }
        self.countryCues = compiled(countryCues)
        self.countryTextCues = compiled(countryTextCues)
        self.countryLikelyCues = compiled(countryLikelyCues)
        // Two-letter currency forms ("Tk", "Rp") are cues: the screen takes two-letter needles.
        countryCueScreen = LiteralScreen(countryCues.map { $0 ?? "" }, minimumNeedle: 2)
        self.fieldLayer = fieldLayer
        self.countries = countries
        self.countryByCode = Dictionary(countries.map { ($0.code, $0) }, uniquingKeysWith: { first, _ in first })
        self.categorizer = categorizer
        self.fallbacks = banks.indices.filter { banks[$0].isFallback }
        self.router = router
        self.rules = rules
        detectScreen = LiteralScreen(banks.flatMap { bank in bank.detect.map(\.source) })
        var formats: [(bank: Int, parser: Int)] = []
        var formatTexts: [String] = []
        // Literals are read from the patterns as written, each grammar reference standing for what
        // its fragment requires (read once: reading the expanded patterns, currency and amount
        // alternations in each, cost 0.2 s of every start with the bundled rules), or for anything
        // when `literals` does not know the fragment.
        // Only a fallback recognizes formats: without one, nothing is read for it.
        let recognizes = banks.contains(where: \.isFallback)
        for (bankIndex, bank) in banks.enumerated() where recognizes && !bank.isFallback {
            for (parserIndex, parser) in bank.parsers.enumerated() {
                guard let written = parser.rule.pattern ?? parser.rule.when else { continue }
                formats.append((bankIndex, parserIndex))
                formatTexts.append(written.value)
            }
        }
        self.formats = formats
        formatScreen = LiteralScreen(formatTexts, references: literals)
        var offset = 0
        detectOffsets = banks.map { bank in
            defer { offset += bank.detect.count }
            return offset
        }
    }

    /// The bank with this id (the first, when two share it).
    public func bank(id: String) -> CompiledBank? {
        bankByID[id].map { banks[$0] }
    }

    /// Every enabled parser, with its bank.
    public var parserCount: Int { banks.reduce(0) { $0 + $1.parsers.count } }
}

/// One bank's compiled rules.
///
/// A class, though immutable like a value: a struct holding the bank's rules as written and
/// its patterns was copied, reference by reference, each time a message reached the bank.
public final class CompiledBank: Sendable {
    /// The bank's id.
    public let id: String
    /// Its rules as written.
    public let rules: BankRules
    /// Subjects of transaction alerts (email only).
    let subjects: [Pattern]
    /// Patterns recognising the bank from the text, when the sender is unknown.
    let detect: [Pattern]
    /// A fallback's senders that are people: read only on behalf of a bank the text names.
    let personalSenders: [Pattern]
    /// Non-transaction patterns, with their rule ids and the patterns that overrule them.
    let ignore: [CompiledIgnore]
    /// Enabled parsers, in order.
    public let parsers: [CompiledParser]
    /// Normalization defaults taken from the bank file.
    let defaults: BankDefaults
    /// The literals of its ignore patterns, then of its parsers' patterns (a one-pattern parser's
    /// pattern, a per-field parser's `when`), searched for in one pass over a message: an ignore
    /// rule or a parser whose literals the text lacks is not tried. An unknown sender's message
    /// met every ignore rule of a fallback file, each a PCRE2 search of the whole text. Empty
    /// (nothing screened, no pass) for a bank of fewer than four patterns (`RuleCompiler`).
    let screen: LiteralScreen
    /// A fallback file (`fallback: true`): never routed to; tried after every bank.
    public var isFallback: Bool { rules.isFallback }

    /// The id of the first ignore rule that ignores `text`, if any. `screened`: `screen`'s result
    /// for `text` (an ignore rule whose literals are not there is passed over), or empty.
    func ignoringRule(_ text: String, scratch: MatchScratch, screened: [Int] = []) -> String? {
        let screening = screened.count == screen.count
        return ignore.indices.first { index in
            !(screening && screened[index] < 0) && ignore[index].ignores(text, scratch: scratch)
        }.map { ignore[$0].id }
    }

    /// Whether the parser at `index` may match the text `screened` is `screen`'s result for
    /// (empty: no screening).
    @inline(__always)
    func mayMatch(parser index: Int, screened: [Int]) -> Bool {
        screened.count != screen.count || screened[ignore.count + index] >= 0
    }

    /// Whether the sender is one of a fallback's `personal_senders` (a person, not a bank).
    func isPersonalSender(_ sender: String?, scratch: MatchScratch) -> Bool {
        guard let sender, !personalSenders.isEmpty else { return false }
        return personalSenders.contains { (try? $0.matches(sender, scratch: scratch)) == true }
    }

    init(id: String, rules: BankRules, subjects: [Pattern], detect: [Pattern], personalSenders: [Pattern] = [],
         ignore: [CompiledIgnore], parsers: [CompiledParser], defaults: BankDefaults, screen: LiteralScreen? = nil) {
        self.id = id
        self.rules = rules
        self.subjects = subjects
        self.detect = detect
        self.personalSenders = personalSenders
        self.ignore = ignore
        self.parsers = parsers
        self.defaults = defaults
        self.screen = screen ?? LiteralScreen([String?](repeating: nil, count: ignore.count + parsers.count))
    }
}

/// The bank-wide settings normalizers need.
struct BankDefaults: Sendable {
    let country: String?
    let currency: String?
    let decimalMark: AmountNormalizer.DecimalMark
    let dateOrder: DateOrder
    let timeZone: TimeZone
    /// The country and its profile's local currency forms.
    let currencies: CurrencyScope
}

/// A country profile, compiled: how a message from an unknown sender is recognised as from
/// this country, and the fallback files with its conventions.
final class CompiledCountry: Sendable {
    /// ISO 3166-1 alpha-2 code.
    let code: String
    /// Dialling prefixes without the "+" ("91").
    let phonePrefixes: [String]
    /// Sender-id shapes.
    let senders: [Pattern]
    /// The rule set's fallback files, compiled with this country's conventions (and its
    /// non-transaction phrases), in the same order.
    let fallbacks: [CompiledBank]

    init(code: String, phonePrefixes: [String], senders: [Pattern], fallbacks: [CompiledBank]) {
        self.code = code
        self.phonePrefixes = phonePrefixes
        self.senders = senders
        self.fallbacks = fallbacks
    }
}

/// One parser, compiled.
///
/// A class for the same reason as `CompiledBank`: every message that reaches the parser
/// would otherwise copy its rule as written, reference by reference.
public final class CompiledParser: Sendable {
    /// The parser's id.
    public let id: String
    /// Its bank's id.
    public let bankID: String
    /// The parser as written.
    public let rule: ParserRule
    /// How it finds its fields.
    let matcher: FieldMatcher
    /// Amount normalization for this parser.
    let amount: AmountNormalizer
    /// Date normalization for this parser.
    let date: DateNormalizer
    /// Constant field values (`fields: {currency: {value: USD}}`).
    let constants: [FieldName: String]
    /// Whether it belongs to a fallback file: its transactions are scored as generic.
    let isFallback: Bool
    /// Fields besides the amount without which a transaction is `pending`.
    let required: [FieldName]
    /// Fields the field layer finds for this parser: those it cannot capture, has no constant
    /// for, and has not switched off. `channel` only when the parser names none.
    let layerFields: [FieldName]
    /// For each of `layerFields`, in the same order, the layer's finders of that field that read
    /// messages of this parser's bank's country (none for `channel`, which the layer's channels find).
    let layerFinders: [[CompiledFieldLayer.Finder]]
    /// The parser's `unless`: found in the message, the parser does not read it.
    let unless: Pattern?
    /// The parser's `unless_amount`: a match of it that no field layer role claims (money that could
    /// be the amount) keeps the parser from reading the message.
    let unlessAmount: Pattern?

    init(id: String, bankID: String, rule: ParserRule, matcher: FieldMatcher, amount: AmountNormalizer,
         date: DateNormalizer, constants: [FieldName: String], isFallback: Bool, layerFields: [FieldName] = [],
         layerFinders: [[CompiledFieldLayer.Finder]] = [], unless: Pattern? = nil, unlessAmount: Pattern? = nil) {
        self.unless = unless
        self.unlessAmount = unlessAmount
        precondition(layerFinders.isEmpty || layerFinders.count == layerFields.count)
        self.layerFields = layerFields
        self.layerFinders = layerFinders.isEmpty ? layerFields.map { _ in [] } : layerFinders
        self.id = id
        self.bankID = bankID
        self.rule = rule
        self.matcher = matcher
        self.amount = amount
        self.date = date
        self.constants = constants
        self.isFallback = isFallback
        self.required = rule.required.map(\.value).filter { $0 != .amount }
    }
}

/// The generic field layer, compiled.
final class CompiledFieldLayer: Sendable {
    /// Per field, its finders in order.
    let finders: [(field: FieldName, patterns: [Finder])]
    /// The channels, in priority order.
    let channels: NamedAlternation<String>?
    /// The kinds, in priority order.
    let kinds: NamedAlternation<TransactionKind>?
    /// The card kinds' patterns written in ASCII (the Latin script's), and the others: the
    /// first the text names is the card's.
    let cardKinds: NamedAlternation<CardKind>?
    let cardKindsOtherScripts: NamedAlternation<CardKind>?
    /// The fields it has finders for (`channel` when it has channels).
    let fields: Set<FieldName>

    /// Roles other than the amount, each with the pattern of the words just before such a mention.
    let roles: [(name: String, pattern: Pattern)]

    /// Advice to the reader ("Never share your OTP"), set aside when ignore rules read a message.
    let advice: [Pattern]

    /// One finder: its pattern, the group that holds the value (0: all of it), and the countries
    /// whose banks' messages it reads (empty: every country's).
    struct Finder: Sendable {
        let pattern: Pattern
        let group: Int
        let countries: Set<String>

        /// Whether it reads a message of a bank of `country` (nil: a country not known).
        func reads(country: String?) -> Bool {
            countries.isEmpty || country.map(countries.contains) ?? true
        }
    }

    init(finders: [(field: FieldName, patterns: [Finder])],
         channels: NamedAlternation<String>?, roles: [(name: String, pattern: Pattern)] = [],
         kinds: NamedAlternation<TransactionKind>? = nil, cardKinds: NamedAlternation<CardKind>? = nil,
         cardKindsOtherScripts: NamedAlternation<CardKind>? = nil, advice: [Pattern] = []) {
        self.advice = advice
        self.kinds = kinds
        self.cardKinds = cardKinds
        self.cardKindsOtherScripts = cardKindsOtherScripts
        self.finders = finders
        self.roles = roles
        self.channels = channels
        var fields = Set(finders.map(\.field))
        if channels != nil { fields.insert(.channel) }
        self.fields = fields
    }

    /// The text with what the advice patterns match blanked out (spaces, byte for byte, so that
    /// the rest keeps its offsets); nil when the text holds no advice. A match limit finds none.
    func withoutAdvice(_ text: String, scratch: MatchScratch) -> String? {
        var spans: [Range<Int>] = []
        let length = text.utf8.count
        for pattern in advice {
            var from = 0
            while from < length, let range = try? pattern.firstRange(in: text, from: from, upTo: length, scratch: scratch),
                  !range.isEmpty {
                spans.append(range)
                from = range.upperBound
            }
        }
        guard !spans.isEmpty else { return nil }
        var bytes = Array(text.utf8)
        for span in spans {
            for index in span { bytes[index] = UInt8(ascii: " ") }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// How far past the end of a one-pattern parser's match the layer looks, in bytes. Its match
    /// is the sentence the bank's format states; a balance or a reference follows it ("... on
    /// 12-11-26. Avl Bal Rs 5,000.00"), not in a footer kilobytes away. Every byte searched is
    /// searched by each finder for every transaction: 400 cost the reference corpus 6%. The
    /// window also ends with the paragraph after the match's own (`Worker.endOfNextParagraph`).
    static let reach = 160
    /// How far past a per-field parser's amount the layer looks, in bytes: its span is the amount
    /// alone, and the rest of an SMS (a reference after the merchant, the date and a balance) follows.
    static let reachAfterAmount = 400
    /// How far before a per-field parser's amount the layer looks, in bytes.
    static let reachBefore = 200
    /// A text this long or shorter (in bytes: an SMS, a push notification) is read whole for its
    /// card's kind; a longer one only `cardKindReach` bytes before the card's mask.
    static let shortText = 512
    static let cardKindReach = 48
    /// The most the layer searches, in bytes, however long the match.
    static let maxWindow = 1024
    /// How many bytes before a money mention its role words are looked for.
    static let roleWindow = 48
}

/// How a parser finds its fields in a message.
enum FieldMatcher: Sendable {
    /// One pattern; each field is a named group (several groups may share a name).
    case single(Pattern, groups: [FieldName: [Int]])
    /// A gate pattern, then one pattern per field searched on its own.
    /// `groups`: the groups of a field's pattern that hold its value, in order (several when
    /// alternatives capture the same name: "%{MONEY_ANY:amount}" or a labelled figure); the first
    /// that took part in a match is the value, else the whole match.
    case perField(when: Pattern?, fields: [(name: FieldName, pattern: Pattern, groups: [Int])])

    /// Whether fields are searched one by one.
    var isPerField: Bool {
        if case .perField = self { return true }
        return false
    }

    /// Whether the matcher can produce this field.
    func captures(_ field: FieldName) -> Bool {
        switch self {
        case .single(_, let groups): groups[field] != nil
        case .perField(_, let fields): fields.contains { $0.name == field }
        }
    }
}

/// An ignore rule, compiled: its pattern, and the pattern that keeps it from ignoring (`unless`).
struct CompiledIgnore: Sendable {
    let id: String
    let pattern: Pattern
    let unless: Pattern?

    /// Whether the rule ignores `text`: `pattern` matches and `unless` does not. A match limit
    /// counts as no match (the rule does not ignore).
    func ignores(_ text: String, scratch: MatchScratch) -> Bool {
        guard (try? pattern.matches(text, scratch: scratch)) == true else { return false }
        guard let unless else { return true }
        return (try? unless.matches(text, scratch: scratch)) == false
    }
}
