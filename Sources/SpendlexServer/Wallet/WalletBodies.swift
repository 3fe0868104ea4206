import Foundation
import SpendlexEngine
import SpendlexMail
import SpendlexRules
import SpendlexStore

/// A wallet card as a client sends it (`POST`, `PUT /wallet/cards`).
struct WalletCardInput: Decodable {
    let card: String
    let last4: String?
    let nickname: String?
    let anniversary: String?
    let statementDay: Int?
    let activated: [String]?

    enum CodingKeys: String, CodingKey {
        case card, last4, nickname, anniversary, activated
        case statementDay = "statement_day"
    }

    /// `card` and `activated` are not nullable; the other fields are, null as left out.
    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        card = try c.decode(String.self, forKey: .card)
        last4 = try c.decodeIfPresent(String.self, forKey: .last4)
        nickname = try c.decodeIfPresent(String.self, forKey: .nickname)
        anniversary = try c.decodeIfPresent(String.self, forKey: .anniversary)
        statementDay = try c.decodeIfPresent(Int.self, forKey: .statementDay)
        activated = try c.decodeUnlessLeftOut([String].self, forKey: .activated)
    }

    /// The fields, checked against the card files of `rules`; 422 `invalid_card` otherwise.
    func fields(rules: RuleSet) throws(APIError) -> WalletCardFields {
        func invalid(_ message: String) -> APIError { APIError(.unprocessableContent, "invalid_card", message) }
        guard rules.cards.contains(where: { $0.id.value == card }) else {
            throw invalid("unknown card '\(card)'; known: " + rules.cards.map(\.id.value).sorted().joined(separator: ", "))
        }
        if let last4, !(4...5).contains(last4.count) || !last4.allSatisfy(\.isASCII) || !last4.allSatisfy(\.isNumber) {
            throw invalid("last4 must be the last 4 (or 5) digits")
        }
        // LocalDate is the strict reader (YYYY-MM-DD, a real day); LocalDay alone takes 2026-02-31.
        if let anniversary, LocalDate(iso: anniversary) == nil || LocalDay(iso: anniversary) == nil {
            throw invalid("anniversary must be a day such as 2026-03-15")
        }
        if let statementDay, !(1...31).contains(statementDay) { throw invalid("statement_day must be from 1 to 31") }
        for quarter in activated ?? [] {
            // `^[0-9]{4}-Q[1-4]$`: ASCII digits only (no sign, no other script's digits).
            let bytes = Array(quarter.utf8)
            guard bytes.count == 7, bytes[..<4].allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
                  bytes[4] == UInt8(ascii: "-"), bytes[5] == UInt8(ascii: "Q"),
                  (UInt8(ascii: "1")...UInt8(ascii: "4")).contains(bytes[6]) else {
                throw invalid("activated quarters are written 2026-Q4")
            }
        }
        return WalletCardFields(card: card, last4: last4, nickname: nickname, anniversary: anniversary,
                                statementDay: statementDay, activated: activated ?? [])
    }
}

/// A wallet card as the service writes it; `spent` holds the corrections by reward group (decimal
/// strings), `spent_as_of` the day each holds for.
struct WalletCardBody: Encodable {
    let record: WalletCardRecord

    enum CodingKeys: String, CodingKey {
        case id, card, last4, nickname, anniversary, activated, spent
        case statementDay = "statement_day", spentAsOf = "spent_as_of"
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(record.id, forKey: .id)
        try c.encode(record.fields.card, forKey: .card)
        try c.encode(record.fields.last4, forKey: .last4)
        try c.encode(record.fields.nickname, forKey: .nickname)
        try c.encode(record.fields.anniversary, forKey: .anniversary)
        try c.encode(record.fields.statementDay, forKey: .statementDay)
        try c.encode(record.fields.activated, forKey: .activated)
        try c.encode(record.spent.mapValues { "\($0.amount)" }, forKey: .spent)
        try c.encode(record.spent.mapValues(\.asOf.description), forKey: .spentAsOf)
    }
}

/// A change of preferences: a field left out is left as it is; `"preferred_program": null` clears it.
struct PreferencesInput: Decodable {
    var preferredProgram: String??
    var alertThreshold: String?

    enum CodingKeys: String, CodingKey {
        case preferredProgram = "preferred_program", alertThreshold = "alert_threshold"
    }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        preferredProgram = c.contains(.preferredProgram) ? .some(try c.decodeIfPresent(String.self, forKey: .preferredProgram)) : .none
        alertThreshold = try c.decodeUnlessLeftOut(String.self, forKey: .alertThreshold)
    }
}

/// The advisor's preferences as stored (`preferences` table) and shown.
struct PreferencesBody: Encodable {
    static let preferredProgramKey = "preferred_program"
    static let alertThresholdKey = "alert_threshold"

    /// The reward program that wins ties; null: none.
    var preferredProgram: String?
    /// The share of a cap (decimal string, 0 to 1) from which a warning says it is nearly used.
    var alertThreshold: String

    enum CodingKeys: String, CodingKey {
        case preferredProgram = "preferred_program", alertThreshold = "alert_threshold"
    }

    init(stored: [String: String]) {
        preferredProgram = stored[Self.preferredProgramKey]
        alertThreshold = stored[Self.alertThresholdKey] ?? "\(WalletPreferences().alertThreshold)"
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(preferredProgram, forKey: .preferredProgram)
        try c.encode(alertThreshold, forKey: .alertThreshold)
    }
}

/// The wallet the advisor sees: the ledger's wallet cards with their spending corrections,
/// and the stored preferences.
public func advisorWallet(cards: [WalletCardRecord], preferences: [String: String]) -> Wallet {
    let location = SourceLocation(file: "ledger", line: 1, column: 1)
    var wallet = Wallet(location: location)
    wallet.cards = cards.map { record in
        var card = WalletCard(card: Located(record.fields.card, at: location))
        card.last4 = record.fields.last4
        card.nickname = record.fields.nickname
        card.anniversary = record.fields.anniversary.flatMap(LocalDay.init(iso:))
        card.statementDay = record.fields.statementDay
        card.activated = record.fields.activated
        card.spentCorrections = record.spent
        return card
    }
    wallet.preferences.preferredProgram = preferences[PreferencesBody.preferredProgramKey]
    if let threshold = preferences[PreferencesBody.alertThresholdKey].flatMap(exactDecimal) {
        wallet.preferences.alertThreshold = threshold
    }
    return wallet
}

/// A plain decimal string ("150", "12.50", "-3.5") as an exact `Decimal`; nil for anything else,
/// floating-point notation, "5." and ".5" included: openapi.yaml's `Decimal`, `^-?[0-9]+(\.[0-9]+)?$`.
func exactDecimal(_ text: String) -> Decimal? {
    let bytes = Array(text.utf8)
    let unsigned = bytes.first == UInt8(ascii: "-") ? bytes.dropFirst() : bytes[...]
    let parts = unsigned.split(separator: UInt8(ascii: "."), maxSplits: 1, omittingEmptySubsequences: false)
    guard parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") } }) else {
        return nil
    }
    return Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))
}

/// `exactDecimal` without a sign: money spent, a share ("450.00", "0.8").
func unsignedDecimal(_ text: String) -> Decimal? {
    text.hasPrefix("-") ? nil : exactDecimal(text)
}
