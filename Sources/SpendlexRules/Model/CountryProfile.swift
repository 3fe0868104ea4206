/// What is true of every bank message of one country (`rules/countries/<cc>.yaml`): its
/// currency and how people write it, number and date conventions, time zone, languages, the
/// shapes of its senders, and phrases that are never transactions. Bank files of the country
/// inherit it; for a message from an unknown sender, the engine infers the country from these
/// cues and reads the message with the country's conventions.
public struct CountryProfile: Sendable {
    /// ISO 3166-1 alpha-2 code, upper case (`IN`).
    public var country: Located<String>
    /// Display name (`India`).
    public var name: String?
    /// ISO 4217 code of the everyday currency; CLDR's when absent.
    public var currency: String?
    /// Local ways of writing currencies, as written, to ISO 4217 codes (`N` → NGN, `Tk` → BDT).
    public var symbols: [(written: String, code: String)] = []
    /// The amount decimal mark: `.` or `,`.
    public var decimalMark: Located<String>?
    /// Date order for numeric dates: `dmy`, `mdy` or `ymd`.
    public var dateOrder: Located<String>?
    /// IANA time zone (`Asia/Kolkata`).
    public var timeZone: Located<String>?
    /// BCP 47 language codes of the country's messages, most used first; informative.
    public var languages: [String] = []
    /// International dialling prefixes (`+91`): a phone-number sender with one is from here.
    public var phonePrefixes: [String] = []
    /// Patterns of the country's sender ids (Indian DLT headers `VM-HDFCBK`): a sender matching
    /// one is from here.
    public var senders: [PatternText] = []
    /// Patterns naming the country's banks and wallets, with or without a rule file: a text
    /// naming one is from here.
    public var bankNames: [PatternText] = []
    /// Patterns of writing only this country's messages use (its script, words of its language
    /// no neighbour shares): a text holding one is from here, but names no bank, so that mail
    /// with such a subject is not read for it as a bank's.
    public var textCues: [PatternText] = []
    /// Patterns of writing several countries share and this one the most (Spanish text with "$"
    /// grouped 1,234.56: most such texts are Mexican): a text nothing else places (no sender, bank,
    /// currency form or text cue) is read as from here. A prior, not evidence: the country stays a
    /// doubt in the confidence.
    public var likelyCues: [PatternText] = []
    /// Phrases that are never transactions in this country's messages (ignore rules), tried for
    /// each of its banks after the bank's own, and for unknown senders read as from here.
    public var nonTransactions: [IgnoreRule] = []
    /// Messages read through the whole engine (routing included) that must give the expected
    /// fields: they test the profile's conventions.
    public var examples: [RuleExample] = []
    /// Where the file starts.
    public var location: SourceLocation

    /// A profile no file declares: the country's code and nothing else (its CLDR conventions).
    public static func unwritten(_ country: String) -> CountryProfile {
        let nowhere = SourceLocation(file: "", line: 0, column: 0)
        return CountryProfile(country: Located(country, at: nowhere), location: nowhere)
    }

    /// Creates an empty profile.
    public init(country: Located<String>, location: SourceLocation) {
        self.country = country
        self.location = location
    }
}
