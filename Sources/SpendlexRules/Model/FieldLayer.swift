/// The generic field layer (`grammars/fields.yaml`): finders for the fields a transaction
/// message states whatever its bank (balance, reference, account or card mask) and the
/// payment channels, declared once. A parser that does not capture one of these fields gets it
/// from the layer; a parser can switch a finder off (`layer: {reference: false}`, or
/// `layer: false` for all).
public struct FieldLayer: Sendable {
    /// The layer's name (`generic`).
    public var name: Located<String>
    /// Finders per field, tried in order: the first that matches gives the field (its capture
    /// named like the field, else the whole match).
    public var finders: [(field: Located<FieldName>, patterns: [LayerFinder])] = []
    /// Channels (`upi`, `pix`, `atm`) and the patterns that name them, tried in order.
    public var channels: [(name: String, pattern: PatternText)] = []
    /// Kinds (`refund`, `reversal`, `salary`) and the words that name them, in order: the fallback's
    /// parsers, which name no kind, take the first the text names.
    public var kinds: [(kind: Located<TransactionKind>, pattern: PatternText)] = []
    /// Card kinds (`credit`, `debit`, `prepaid`) and the words that name them ("Debit Card",
    /// "tarjeta de crédito"), a kind once per pattern (a kind may have several): a card whose
    /// parser names no kind takes the one the text around the transaction names first.
    /// `otherScripts`: a pattern for scripts other than the Latin (a kind's second and later).
    public var cardKinds: [(kind: Located<CardKind>, pattern: PatternText, otherScripts: Bool)] = []
    /// Roles a money mention can have besides the amount (`balance`, `limit`, `fee`), each with
    /// a pattern that matches the words just before such a mention (anchored at their end): a
    /// per-field parser's amount is the first mention with none of these roles.
    public var roles: [(name: String, pattern: PatternText)] = []
    /// Advice to the reader ("Never share your OTP, PIN or CVV with anyone"): what each pattern
    /// matches is set aside when ignore rules read a message, so that an alert's safety footer
    /// naming the OTP does not make the alert an OTP message.
    public var advice: [PatternText] = []
    /// Where the file starts.
    public var location: SourceLocation

    /// Creates an empty layer.
    public init(name: Located<String>, location: SourceLocation) {
        self.name = name
        self.location = location
    }
}

/// One finder of the field layer: a pattern, and the countries whose messages it reads.
public struct LayerFinder: Sendable {
    /// The pattern; its capture named like the field holds the value (else the whole match).
    public var pattern: PatternText
    /// ISO 3166-1 alpha-2 codes (upper case): the finder reads the messages of these countries'
    /// banks, and of senders no bank names (whose country may be any). Empty: every country's.
    /// A format only some countries use (Cambodia's KHQR transaction hash, the code that opens a
    /// mobile-money confirmation) costs every other country's messages a scan for nothing.
    public var countries: [Located<String>]

    /// A finder for every country, or for the countries named.
    public init(pattern: PatternText, countries: [Located<String>] = []) {
        self.pattern = pattern
        self.countries = countries
    }
}
