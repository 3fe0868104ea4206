/// How one bank's statement is laid out (a CSV or spreadsheet export, or a PDF's table): a rule
/// file of its own (`rules/statements/<country>/<bank>.yaml`, top-level key `statement`), for
/// statements whose header does not name its columns plainly enough to be read without one.
/// `spendlex import` recognizes a file by the profile's header row (in a PDF, the header line's
/// cells, which also place its columns); `spendlex test` runs its example rows.
public struct StatementProfile: Sendable {
    /// What a column holds.
    public enum Column: String, Sendable, CaseIterable {
        case date, description, payee, reference, balance, currency, amount, debit, credit
    }

    /// How one signed amount column reads.
    public enum Sign: String, Sendable, CaseIterable {
        /// A negative amount is money out (most bank accounts).
        case negativeIsDebit = "negative_is_debit"
        /// A positive amount is money out (many card statements: charges positive, payments negative).
        case positiveIsDebit = "positive_is_debit"
    }

    /// An example row and the fields it must give.
    public struct Example: Sendable {
        /// The row as it is in the file (one line, the profile's delimiter).
        public var row: Located<String>
        /// Expected fields, by the names examples of bank files use (`amount`, `date`, `direction`...).
        public var expect: [(field: Located<ExpectedField>, value: Located<String>)]
    }

    /// The profile's id (`hdfc.savings`).
    public var id: Located<String>
    /// The bank id alerts from the same bank have (`hdfc`).
    public var bank: String?
    /// ISO 3166-1 alpha-2 country: the currency when the file has no currency column.
    public var country: String?
    /// `account` or `card`.
    public var accountType = "account"
    /// The field delimiter: one character (`,` when not given).
    public var delimiter: Character = ","
    /// The header row's cells, as written: how a file is recognized, and what `columns` name.
    public var header: [Located<String>] = []
    /// Which header cell holds what.
    public var columns: [Column: Located<String>] = [:]
    /// The date's layout (`dd/MM/yy`), nil to detect it.
    public var dateFormat: Located<String>?
    /// `point` or `comma`; nil to read it from the amounts.
    public var decimal: String?
    /// How the one amount column's sign reads.
    public var sign: Sign = .negativeIsDebit
    /// The label of the cell, above the header, that the account number follows ("Account Number").
    public var accountLabel: String?
    /// PDF statements whose columns do not line up: a PCRE2 pattern a row's line matches, its
    /// named groups the columns (`date`, `description`, `payee`, `reference`, `amount` or `debit`
    /// and `credit`, `balance`, `currency`); `columns` is then not needed, and an example's `row`
    /// is a line of the statement's text.
    public var row: Located<String>?
    /// With `row`: a pattern the lines below a row match when they continue it, its groups added
    /// to the row's (a description's second line).
    public var continuation: Located<String>?
    /// PDF statements: lines of the page text that are never rows nor parts of one (a page's
    /// running title, a legend), as PCRE2 patterns.
    public var skip: [Located<String>] = []
    /// PDF statements: where the opening balance is stated, a PCRE2 pattern over the statement's
    /// text with a group `amount` (and `date` where it says when); nil to find a line such as
    /// "Opening Balance ... 1,234.00" before the rows.
    public var openingBalance: Located<String>?
    /// PDF statements: where the closing balance is stated, as `openingBalance`; nil to find a
    /// line such as "Closing Balance ... 1,234.00" after the rows.
    public var closingBalance: Located<String>?
    /// Example rows.
    public var examples: [Example] = []
    /// Where the profile starts.
    public var location: SourceLocation

    /// Creates a profile with its id.
    public init(id: Located<String>, location: SourceLocation) {
        self.id = id
        self.location = location
    }
}
