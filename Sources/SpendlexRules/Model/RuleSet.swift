/// Everything loaded from a set of rule files: banks, grammar fragments, categories and
/// their decision tables, and the files' texts (for diagnostics). Built by `RuleLoader`;
/// compiled by the engine.
public struct RuleSet: Sendable {
    /// Bank files, in path order.
    public var banks: [BankRules]
    /// Grammar fragments from every grammar file, in path order.
    public var fragments: [GrammarFragment]
    /// The texts of the files read, by path.
    public var sources: [String: SourceText]
    /// The declared categories (a closed list), from categories files.
    public var categories: [CategoryDeclaration] = []
    /// Decision tables that categorize transactions, applied in path and file order.
    public var categoryTables: [CategoryTable] = []
    /// Card reward files, in path order.
    public var cards: [CardRules] = []
    /// Reward program valuations from points files.
    public var pointPrograms: [PointProgram] = []
    /// Country profiles, in path order.
    public var countries: [CountryProfile] = []
    /// The generic field layer; the first file's when several are loaded.
    public var fieldLayer: FieldLayer?
    /// Statement profiles: how banks' CSV exports are laid out.
    public var statementProfiles: [StatementProfile] = []

    /// The profile of a country (ISO 3166-1 alpha-2, any case).
    public func profile(of country: String?) -> CountryProfile? {
        guard let country else { return nil }
        let code = country.uppercased()
        return countries.first { $0.country.value == code }
    }

    /// Adds what another rule set holds after what this one does (the files it was read from come
    /// after this one's). A second field layer is a duplicate, reported where it is.
    mutating func merge(_ other: RuleSet, diagnostics: inout [Diagnostic]) {
        banks += other.banks
        fragments += other.fragments
        sources.merge(other.sources) { first, _ in first }
        categories += other.categories
        categoryTables += other.categoryTables
        cards += other.cards
        pointPrograms += other.pointPrograms
        countries += other.countries
        statementProfiles += other.statementProfiles
        if let layer = other.fieldLayer {
            if let first = fieldLayer {
                diagnostics.append(.duplicateID(layer.name.value, at: layer.name.location, first: first.name.location))
            } else {
                fieldLayer = layer
            }
        }
    }

    /// Creates a rule set.
    public init(banks: [BankRules] = [], fragments: [GrammarFragment] = [], sources: [String: SourceText] = [:]) {
        self.banks = banks
        self.fragments = fragments
        self.sources = sources
    }
}

/// A named pattern fragment, referenced from patterns as `%{NAME}` or `%{NAME:field}`.
public struct GrammarFragment: Sendable {
    /// The fragment's name: upper case letters, digits and underscores.
    public let name: Located<String>
    /// Its pattern, which may reference other fragments.
    public let pattern: PatternText
    /// A one-line description, for `spendlex explain` and editors.
    public let summary: String?

    /// Creates a fragment.
    public init(name: Located<String>, pattern: PatternText, summary: String?) {
        self.name = name
        self.pattern = pattern
        self.summary = summary
    }
}

/// One bank's rule file.
public struct BankRules: Sendable {
    /// Stable id, lower case (`hdfc`); parser ids should start with it.
    public var id: Located<String>
    /// Display name (`HDFC Bank`).
    public var name: String?
    /// ISO 3166-1 alpha-2 country (`IN`); resolves `$`, date order and the default currency.
    public var country: String?
    /// ISO 4217 default currency, used when a message writes none.
    public var currency: String?
    /// A BCP 47 locale (`en-IN`), informative.
    public var locale: String?
    /// IANA time zone of the bank's messages (`Asia/Kolkata`), for dates taken from the arrival time.
    public var timeZone: Located<String>?
    /// The amount decimal mark: `.` or `,`; detected when absent.
    public var decimalMark: Located<String>?
    /// Date order for numeric dates: `dmy`, `mdy` or `ymd`; from the country when absent.
    public var dateOrder: Located<String>?
    /// A fallback rule file: tried only for messages that no other bank's parser reads, and its
    /// transactions are scored as generic (lower confidence). Never routed to by sender or `detect`.
    public var isFallback = false
    /// Sender patterns: email addresses, domains, SMS sender ids; `*` and `?` are wildcards.
    public var senders: [Located<String>]
    /// For email: subjects of transaction alerts; other mail from the bank is ignored.
    public var subjects: [PatternText]
    /// Patterns that recognise the bank's messages from their text, when the sender is unknown.
    public var detect: [PatternText]
    /// Fallback files only: patterns of senders that are people, not banks (phone numbers). The
    /// fallback reads their messages only when the text names a bank (`detect`): "I paid Rs 200
    /// for dinner" from a friend is not an alert.
    public var personalSenders: [PatternText]
    /// Non-transactions from this bank: OTPs, dues, promotions.
    public var ignore: [IgnoreRule]
    /// The parsers, tried in order.
    public var parsers: [ParserRule]
    /// Where the file starts.
    public var location: SourceLocation

    /// Creates a bank.
    public init(id: Located<String>, location: SourceLocation) {
        self.id = id
        self.location = location
        self.senders = []
        self.subjects = []
        self.detect = []
        self.personalSenders = []
        self.ignore = []
        self.parsers = []
    }
}

/// A pattern that marks a bank's message as a non-transaction.
public struct IgnoreRule: Sendable {
    /// Stable id: given, or `<bank>.ignore.<n>` (1-based).
    public let id: String
    /// The pattern.
    public let pattern: PatternText
    /// A pattern that, found anywhere in the message, keeps the rule from ignoring it: "declined"
    /// ignores a message unless it names a fee charged. Tried only when `pattern` matched.
    public let unless: PatternText?

    /// Creates an ignore rule.
    public init(id: String, pattern: PatternText, unless: PatternText? = nil) {
        self.id = id
        self.pattern = pattern
        self.unless = unless
    }
}

/// One message format of a bank.
public struct ParserRule: Sendable {
    /// Stable id (`hdfc.card.spend`), unique across the rule set.
    public var id: Located<String>
    /// Debit or credit; a `direction` capture may decide instead.
    public var direction: Located<Direction>?
    /// What kind of transaction this format reports.
    public var kind: Located<TransactionKind>?
    /// The payment channel when the format implies one (`card`, `upi`).
    public var channel: String?
    /// `card` or `account`: what a `last4` capture refers to (`account_type: debit_card`,
    /// `credit_card` or `prepaid_card` is a card of that kind).
    public var accountType: String?
    /// The kind of card the format's card is, when it says (`account_type: debit_card`); else the
    /// field layer's `card_kinds` read it from the text.
    public var cardKind: CardKind?
    /// One pattern with named captures: the usual way.
    public var pattern: PatternText?
    /// With per-field patterns: a pattern that must match before the fields are searched.
    public var when: PatternText?
    /// A pattern that, found anywhere in the message, keeps this parser from reading it (tried only
    /// when `pattern` or `when` matched): what an earlier parser reads, for a last-resort parser.
    public var unless: PatternText?
    /// A pattern that keeps this parser from reading a message where it finds money that could be
    /// the amount: a match the field layer's roles (balance, limit, fee) do not claim. For a
    /// parser that reads a figure without its currency ("credited 999.63"), a balance's money
    /// ("remaining 8,236.90 THB") is no reason to stand aside.
    public var unlessAmount: PatternText?
    /// Field options, and per-field patterns.
    public var fields: [FieldRule]
    /// Fields without which a transaction is `pending` rather than complete; `amount` always is.
    public var required: [Located<FieldName>] = []
    /// Field layer finders this parser switches off (`layer: {reference: false}`); every one
    /// with `layer: false`.
    public var layerOff: Set<FieldName> = []
    /// Whether the parser takes part; `enabled: false` switches it off (and its examples).
    public var enabled: Bool
    /// Messages this parser must turn into the expected fields.
    public var examples: [RuleExample]
    /// Messages that must not produce a transaction.
    public var counterExamples: [CounterExample]
    /// Where the parser's mapping starts.
    public var location: SourceLocation

    /// Creates a parser.
    public init(id: Located<String>, location: SourceLocation) {
        self.id = id
        self.location = location
        self.fields = []
        self.enabled = true
        self.examples = []
        self.counterExamples = []
    }

    /// The options of a field, if the parser configures it.
    public func field(_ name: FieldName) -> FieldRule? {
        fields.first { $0.name.value == name }
    }
}

/// How one field is found and normalized.
public struct FieldRule: Sendable {
    /// The field.
    public var name: Located<FieldName>
    /// A pattern searched on its own (per-field parsers): the capture named like the field,
    /// else group 1, else the whole match is the value.
    public var pattern: PatternText?
    /// A constant value, when the format implies it (`currency: {value: USD}`).
    public var value: Located<String>?
    /// Date format for `date` (`dd-MM-yy`, `MMM d, yyyy`).
    public var format: Located<String>?
    /// Decimal mark for amounts: `.` or `,`.
    public var decimalMark: Located<String>?

    /// Creates a field rule.
    public init(name: Located<FieldName>) {
        self.name = name
    }
}

/// A message a parser must turn into a transaction with the expected fields.
public struct RuleExample: Sendable {
    /// The message text.
    public var text: Located<String>
    /// The sender; the bank's first sender pattern without wildcards when absent.
    public var sender: String?
    /// The email subject, if the example is an email.
    public var subject: String?
    /// Arrival time (ISO 8601), for dates without a year or without a date.
    public var receivedAt: Located<String>?
    /// Expected output fields; a null value expects the field to be absent.
    public var expect: [(field: Located<ExpectedField>, value: Located<String?>)]
    /// Where the example starts.
    public var location: SourceLocation

    /// Creates an example.
    public init(text: Located<String>, location: SourceLocation) {
        self.text = text
        self.location = location
        self.expect = []
    }
}

/// A message that must not produce a transaction.
public struct CounterExample: Sendable {
    /// The message text.
    public var text: Located<String>
    /// The sender, as for examples.
    public var sender: String?
    /// The subject, as for examples.
    public var subject: String?

    /// Creates a counter-example.
    public init(text: Located<String>, sender: String? = nil, subject: String? = nil) {
        self.text = text
        self.sender = sender
        self.subject = subject
    }
}
