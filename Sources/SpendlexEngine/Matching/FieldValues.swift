import SpendlexRules

/// The raw text a parser captured for each field: a fixed array indexed by field, as a
/// dictionary's hashing showed up in profiles of the per-message path.
struct FieldValues: Sendable {
    private var values = [String?](repeating: nil, count: FieldName.allCases.count)

    subscript(field: FieldName) -> String? {
        get { values[field.ordinal] }
        set { values[field.ordinal] = newValue }
    }

    /// The captured fields with their text, in field order.
    var captured: [(field: FieldName, raw: String)] {
        FieldName.allCases.compactMap { field in self[field].map { (field, $0) } }
    }
}

extension FieldName {
    /// Position in `allCases`, without a search.
    var ordinal: Int {
        switch self {
        case .amount: 0
        case .currency: 1
        case .date: 2
        case .time: 3
        case .merchant: 4
        case .account: 5
        case .card: 6
        case .last4: 7
        case .balance: 8
        case .reference: 9
        case .channel: 10
        case .direction: 11
        }
    }
}
