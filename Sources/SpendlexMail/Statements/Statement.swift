import Foundation
import SpendlexEngine
import SpendlexRules

/// The statement formats `spendlex import` reads, told apart by their content.
public enum StatementFormat: String, Sendable, CaseIterable {
    /// Open Financial Exchange (and Quicken's QFX): 1.x SGML and 2.x XML.
    case ofx
    /// Quicken Interchange Format.
    case qif
    /// SWIFT MT940 customer statements.
    case mt940
    /// ISO 20022 `camt.053` bank-to-customer statements (XML).
    case camt053 = "camt.053"
    /// Comma-, semicolon- or tab-separated values with a header row.
    case csv
    /// A spreadsheet (Office Open XML) whose first sheet is a table with a header row.
    case xlsx
    /// A PDF whose pages hold a table with a header line (its text laid out by `pdftotext`).
    case pdf

    /// The format of a statement's text, from its content; nil when it is none of them.
    public static func detect(_ text: String) -> StatementFormat? {
        let head = String(text.prefix(4096))
        let trimmed = head.drop { $0.isWhitespace || $0 == "\u{FEFF}" }
        if trimmed.hasPrefix("OFXHEADER") || head.range(of: "<OFX>", options: .caseInsensitive) != nil
            || head.contains("<?OFX") {
            return .ofx
        }
        if head.contains("urn:iso:std:iso:20022:tech:xsd:camt.053") { return .camt053 }
        if trimmed.hasPrefix("!Type:") || trimmed.hasPrefix("!Account") || trimmed.hasPrefix("!Option") { return .qif }
        // MT940: a `:20:` reference and an opening balance line (`:60F:` or `:60M:`), after
        // optional SWIFT blocks (`{1:...}`).
        if head.contains(":20:") && (head.contains(":60F:") || head.contains(":60M:")) { return .mt940 }
        if CSVStatementReader.looksLikeCSV(head) { return .csv }
        return nil
    }
}

/// How the entries of a statement are read where the statement does not say.
public struct StatementOptions: Sendable {
    /// The bank (or card issuer) the account is at: the ledger's bank id (`hdfc`, `chase`),
    /// which alerts from that bank share. nil: the statement's own (OFX `ORG`, a BIC), else `statement`.
    public var bank: String?
    /// ISO 3166-1 alpha-2 country: the order of all-numeric dates where the statement's own
    /// dates leave it open.
    public var country: String?
    /// Whether the account is a card (`card`) or a bank account (`account`).
    public var accountType: String
    /// The statement profiles a CSV may be laid out by (the rule files').
    public var profiles: [StatementProfile]
    /// The profile to read CSVs by, nil to find one by its header or read the header's names.
    public var profile: String?

    /// The currency of `country`, for statements that name none (CSV, QIF).
    var localCurrency: String? { country.flatMap(CurrencyNormalizer.defaultCode(forCountry:)) }

    /// Creates options.
    public init(bank: String? = nil, country: String? = nil, accountType: String = "account",
                profiles: [StatementProfile] = [], profile: String? = nil) {
        self.bank = bank
        self.country = country
        self.accountType = accountType
        self.profiles = profiles
        self.profile = profile
    }
}

/// A balance a statement states: its amount as written and its date.
public struct StatementBalance: Sendable, Equatable {
    /// The amount as written (signed where the statement signs it).
    public var amount: String
    /// The date as written, if any.
    public var date: String?
    /// The date's layout (`yyMMdd` for MT940).
    public var dateFormat: String?
    /// Whether the balance holds at the start of `date` (CAMT's `OPBD`) rather than at its end.
    public var atStartOfDay: Bool

    /// Creates a balance.
    public init(amount: String, date: String?, dateFormat: String? = nil, atStartOfDay: Bool = false) {
        self.amount = amount
        self.date = date
        self.dateFormat = dateFormat
        self.atStartOfDay = atStartOfDay
    }
}

/// What a statement file held: its entries, its opening and closing balances where it states
/// them, and every line it could not read, with why (never dropped in silence).
public struct Statement: Sendable {
    /// The format it was read as.
    public var format: StatementFormat
    /// The entries, in the statement's order.
    public var entries: [StatementEntry] = []
    /// The balance before the first entry, when the statement states it.
    public var opening: StatementBalance?
    /// The balance after the last entry, when the statement states it.
    public var closing: StatementBalance?
    /// Lines or rows skipped, each `file:line: why`.
    public var skipped: [String] = []
    /// The decimal mark of its amounts.
    public var decimalMark: AmountNormalizer.DecimalMark = .auto

    /// Creates an empty statement of a format.
    public init(format: StatementFormat) {
        self.format = format
    }
}

/// Why a statement file could not be read at all.
public struct StatementError: Error, CustomStringConvertible, Sendable {
    /// The file.
    public let path: String
    /// Why, in words.
    public let reason: String

    /// Creates an error.
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    public var description: String { "\(path): error: \(reason)" }
}
