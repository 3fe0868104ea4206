import SpendlexRules

/// One row of a bank statement (a CSV line, an OFX `<STMTTRN>`, a QIF record, an MT940 `:61:`
/// line, a CAMT.053 `<Ntry>`), as its reader found it: the values as written, with what the
/// format itself says about them. `RuleEngine.Worker.read(_:)` makes it a transaction through
/// the same normalizing and categorizing as a parsed message.
public struct StatementEntry: Sendable, Equatable {
    /// The entry's stable id in the ledger: the statement's own transaction id where the format
    /// has one (`ofx:ACCOUNT:FITID`), else the file and row.
    public var id: String
    /// The statement's format, as the rule that read it is named (`statement.ofx`, `statement.csv`).
    public var format: String
    /// The statement file.
    public var file: String?
    /// The 1-based row (CSV), line (QIF, MT940, OFX 1.x) or entry number (OFX 2.x, CAMT.053)
    /// the entry starts at.
    public var line: Int
    /// Who keeps the account: the bank id given on the command line, else the statement's
    /// (an OFX `ORG`, a BIC), else `statement`.
    public var bank: String
    /// The account or card number as the statement gives it (only its last digits are kept).
    public var account: String?
    /// `account` or `card`.
    public var accountType: String
    /// The booking date as written.
    public var date: String
    /// The date's layout when the format fixes it (`yyyyMMdd` for OFX), nil to detect it.
    public var dateFormat: String?
    /// The order of an all-numeric date's parts, when the layout is detected.
    public var dateOrder: DateOrder
    /// The amount as written, with its sign when the format signs amounts.
    public var amount: String
    /// The decimal mark of the statement's amounts.
    public var decimalMark: AmountNormalizer.DecimalMark
    /// Debit or credit when the format says so apart from a sign (MT940's `D`/`C`, CAMT's
    /// `CdtDbtInd`, separate debit and credit columns); nil to read it from the amount's sign
    /// (a negative amount is a debit).
    public var direction: Direction?
    /// What kind of transaction the format says it is (OFX's `TRNTYPE`), if any.
    public var kind: TransactionKind?
    /// The ISO 4217 currency, when the statement names it.
    public var currency: String?
    /// The counterparty (OFX `NAME`, QIF `P`, CAMT's creditor or debtor name).
    public var payee: String?
    /// The description or narrative (OFX `MEMO`, a CSV's description column, MT940's `:86:`).
    public var description: String?
    /// The statement's reference for the entry (OFX `FITID`, a cheque number, MT940's bank reference).
    public var reference: String?
    /// The balance after the entry, as written, when the statement gives one.
    public var balance: String?
    /// The date a date without a year is read near (a PDF's statement period ends there): the
    /// year that puts it latest but at most 7 days after this one. nil: a date needs its year.
    public var dateReference: LocalDate?

    /// Creates an entry.
    public init(id: String, format: String, file: String?, line: Int, bank: String, account: String?,
                accountType: String = "account", date: String, dateFormat: String? = nil,
                dateOrder: DateOrder = .dayMonthYear, amount: String, decimalMark: AmountNormalizer.DecimalMark = .auto,
                direction: Direction? = nil, kind: TransactionKind? = nil, currency: String? = nil, payee: String? = nil,
                description: String? = nil, reference: String? = nil, balance: String? = nil) {
        self.id = id
        self.format = format
        self.file = file
        self.line = line
        self.bank = bank
        self.account = account
        self.accountType = accountType
        self.date = date
        self.dateFormat = dateFormat
        self.dateOrder = dateOrder
        self.amount = amount
        self.decimalMark = decimalMark
        self.direction = direction
        self.kind = kind
        self.currency = currency
        self.payee = payee
        self.description = description
        self.reference = reference
        self.balance = balance
    }
}
