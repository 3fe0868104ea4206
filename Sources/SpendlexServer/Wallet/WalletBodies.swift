import Foundation
import SpendlexEngine
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

    /// The fields, checked against the card files of `rules`; 422 `invalid_card` otherwise.
    func fields(rules: RuleSet) throws(APIError) -> WalletCardFields {
        func invalid(_ message: String) -> APIError { APIError(.unprocessableContent, "invalid_card", message) }
        guard rules.cards.contains(where: { $0.id.value == card }) else {
            throw invalid("unknown card '\(card)'; known: " + rules.cards.map(\.id.value).sorted().joined(separator: ", "))
        }
        if let last4, !(4...5).contains(last4.count) || !last4.allSatisfy(\.isASCII) || !last4.allSatisfy(\.isNumber) {
            throw invalid("last4 must be the last 4 (or 5) digits")
        }
        if let anniversary, LocalDay(iso: anniversary) == nil { throw invalid("anniversary must be a day such as 2026-03-15") }
        if let statementDay, !(1...31).contains(statementDay) { throw invalid("statement_day must be from 1 to 31") }
        for quarter in activated ?? [] {
            let parts = quarter.split(separator: "-Q")
            guard parts.count == 2, parts[0].count == 4, Int(parts[0]) != nil, ["1", "2", "3", "4"].contains(parts[1]) else {
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
        alertThreshold = try c.decodeIfPresent(String.self, forKey: .alertThreshold)
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
func advisorWallet(cards: [WalletCardRecord], preferences: [String: String]) -> Wallet {
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

/// A plain decimal string ("150", "12.50") as an exact `Decimal`; nil for anything else,
/// floating-point notation included.
func exactDecimal(_ text: String) -> Decimal? {
    var digits = 0, points = 0
    for (index, character) in text.enumerated() {
        switch character {
        case "0"..."9": digits += 1
        case ".": points += 1
        case "-" where index == 0: continue
        default: return nil
        }
    }
    guard digits > 0, points <= 1 else { return nil }
    return Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))
}
