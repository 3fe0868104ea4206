import PCRE2
import SpendlexRules

/// Guesses a message's direction, kind and channel from its words, in English, German, French,
/// Spanish, Portuguese and Indonesian: "debited", "abgebucht", "débité", "cargo", "debitado"
/// for debits; "credited", "gutgeschrieben", "crédité", "abono", "creditado" for credits.
/// The first direction word wins ("debited from your account and credited to …" is a debit).
struct TransactionWordGuess {
    /// Which way the money went, if a word says so.
    let direction: Direction?
    /// What kind of transaction, if a word (or an "at"-like merchant cue) says so.
    let kind: TransactionKind?
    /// `card`, `upi`, `neft`, `imps`, `rtgs` or `atm`, if named.
    let channel: String?

    // Constant patterns known to compile; a failure here is a programming error.
    private static let debit = try! Pattern(
        #"(?i)\b(?:debited|spent|paid|sent|withdrawn|charged|deducted|purchased?|abgebucht|belastet|bezahlt|d[ée]bit[ée]|pay[ée]|cargo|compra|debitado|pago|pagado|retiro|retirado|pembelian|didebet|transferred)\b"#)
    private static let credit = try! Pattern(
        #"(?i)\b(?:credited|received|refund|refunded|deposited|reversed|reversal|cashback|gutgeschrieben|erhalten|cr[ée]dit[ée]|re[çc]u|remboursement|abono|abonado|recibido|creditado|recebido|reembolso|diterima|dikreditkan)\b"#)
    /// Money someone else sent or paid to the reader: "JOHN SMITH has sent £25.00 to your
    /// account", "ACME paid you $40": a credit, though "sent" and "paid" are debit words.
    private static let paidToYou = try! Pattern(
        #"(?i)\b(?:sent|paid|transferred)\b(?:[^.\n]|\.(?=\d)){0,60}?\b(?:to|into|in)\s+your\s+(?:a/c|account|acct|card|wallet)\b|\b(?:sent|paid)\s+you\b"#)
    private static let kinds: [(TransactionKind, Pattern)] = [
        (.refund, try! Pattern(#"(?i)\b(?:refund|refunded|reversed|reversal|remboursement|reembolso|erstattung)\b"#)),
        (.withdrawal, try! Pattern(#"(?i)\b(?:withdrawn|withdrawal|atm|cash withdrawal|abgehoben|retrait|retiro|saque|tarik tunai)\b"#)),
        (.deposit, try! Pattern(#"(?i)\b(?:deposited|deposit|einzahlung|d[ée]p[ôo]t|dep[óo]sito|setoran)\b"#)),
        (.salary, try! Pattern(#"(?i)\b(?:salary|gehalt|salaire|salario|sal[áa]rio|gaji)\b"#)),
        (.purchase, try! Pattern(#"(?i)\b(?:spent|purchased?|charged|compra|bezahlt|achat|pembelian|kartenzahlung|pos)\b"#)),
        (.transfer, try! Pattern(#"(?i)\b(?:sent|transfer|transferred|[üu]berweisung|virement|transferencia|transfer[êe]ncia|pix|upi|neft|imps|rtgs)\b"#)),
    ]
    private static let channels: [(String, Pattern)] = [
        ("card", try! Pattern(#"(?i)\b(?:card|karte|carte|tarjeta|cart[ãa]o|kartu)\b"#)),
        ("upi", try! Pattern(#"\bUPI\b"#)),
        ("neft", try! Pattern(#"\bNEFT\b"#)),
        ("imps", try! Pattern(#"\bIMPS\b"#)),
        ("rtgs", try! Pattern(#"\bRTGS\b"#)),
        ("atm", try! Pattern(#"\bATM\b"#)),
    ]

    /// Whether `word` is a verb or noun of money moving one way ("debited", "received"): two
    /// messages that differ in one are not one format.
    static func isDirectionWord(_ word: String) -> Bool {
        let scratch = MatchScratch()
        return ((try? debit.matches(word, scratch: scratch)) ?? false) || ((try? credit.matches(word, scratch: scratch)) ?? false)
    }

    /// Guesses from `text` (the alert without its tail). `merchantCue` is the word before the
    /// merchant ("at", "di", "from"), if one was found: paying *at* a merchant is a purchase.
    init(text: String, merchantCue: String?) {
        let scratch = MatchScratch()
        func first(_ pattern: Pattern) -> Int? {
            (try? pattern.firstMatch(in: text, scratch: scratch))?.map { $0.range.lowerBound }
        }
        let debitAt = first(Self.debit), creditAt = first(Self.credit)
        var direction: Direction? = switch (debitAt, creditAt) {
        case let (d?, c?): d <= c ? .debit : .credit
        case (_?, nil): .debit
        case (nil, _?): .credit
        case (nil, nil): nil
        }
        if let paid = first(Self.paidToYou), paid <= (debitAt ?? Int.max), paid <= (creditAt ?? Int.max) {
            direction = .credit
        }
        var kind = Self.kinds.first { first($0.1) != nil }?.0
        let atMerchant = merchantCue.map { MerchantFinder.cueRanks[$0] == 0 } ?? false
        if kind == nil && atMerchant && direction != .credit {
            kind = .purchase
            direction = .debit
        }
        if kind == .refund && direction == nil { direction = .credit }
        if (kind == .withdrawal || kind == .purchase) && direction == nil { direction = .debit }
        self.direction = direction
        self.kind = kind
        self.channel = Self.channels.first { first($0.1) != nil }?.0
    }
}
