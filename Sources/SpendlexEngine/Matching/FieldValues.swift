import SpendlexRules

/// The raw text a parser captured for each field: one stored property per field, as a
/// dictionary's hashing, and then an array's allocation, showed up in profiles of the
/// per-message path.
struct FieldValues: Sendable {
    private var amount, currency, date, time, merchant, account, card, last4, balance, reference, channel,
                direction: String?
    /// Where a one-pattern parser matched (UTF-8 offsets): the field layer looks from there.
    var span: Range<Int>?
    /// The kind the field layer read from the words of a message whose parser names none.
    var kind: TransactionKind?
    /// The kind of card the field layer read from the words around a card's transaction.
    var cardKind: CardKind?
    /// Where the card or last-digits capture starts (UTF-8 offset): a card's kind is named just
    /// before its mask ("Debit Card XX1234").
    var maskStart: Int?

    /// Sets `field` from `range` of `text`, and notes where a mask starts.
    mutating func set(_ field: FieldName, _ value: String, at range: Range<Int>) {
        self[field] = value
        if field == .card || field == .last4 { maskStart = range.lowerBound }
    }

    subscript(field: FieldName) -> String? {
        get {
            switch field {
            case .amount: amount
            case .currency: currency
            case .date: date
            case .time: time
            case .merchant: merchant
            case .account: account
            case .card: card
            case .last4: last4
            case .balance: balance
            case .reference: reference
            case .channel: channel
            case .direction: direction
            }
        }
        set {
            switch field {
            case .amount: amount = newValue
            case .currency: currency = newValue
            case .date: date = newValue
            case .time: time = newValue
            case .merchant: merchant = newValue
            case .account: account = newValue
            case .card: card = newValue
            case .last4: last4 = newValue
            case .balance: balance = newValue
            case .reference: reference = newValue
            case .channel: channel = newValue
            case .direction: direction = newValue
            }
        }
    }

    /// The captured fields with their text, in field order.
    var captured: [(field: FieldName, raw: String)] {
        FieldName.allCases.compactMap { field in self[field].map { (field, $0) } }
    }
}
