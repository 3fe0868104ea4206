import Foundation
import SpendlexRules

/// Normalizes one parser's raw captures into a `Transaction`, scoring its confidence.
struct TransactionBuilder {
    let parser: CompiledParser
    let defaults: BankDefaults

    /// Confidence lost for each weakness of a parse; a record under `reviewThreshold` is `review`.
    enum Penalty {
        static let perFieldParser = 0.05
        static let routedByText = 0.05
        static let dateFromArrival = 0.05
        static let noDate = 0.15
        static let badOptionalField = 0.15
        static let unknownCurrency = 0.2
        static let noDirection = 0.2
    }
    static let reviewThreshold = 0.7

    func build(raw: FieldValues, message: Message, routedBySender: Bool) -> ParseOutcome {
        let rule = parser.rule
        var confidence = 1.0
        if case .perField = parser.matcher { confidence -= Penalty.perFieldParser }
        if !routedBySender { confidence -= Penalty.routedByText }
        func value(_ field: FieldName) -> String? { raw[field] ?? parser.constants[field] }

        // Amount: required; a malformed one makes the message an error.
        var amount: ParsedAmount?
        if let text = value(.amount) {
            do { amount = try parser.amount.normalize(text) } catch {
                return .failed(rule: parser.id, field: .amount, error: error)
            }
        }

        var currency: String?
        if let text = value(.currency) {
            currency = CurrencyNormalizer.code(for: text, country: defaults.country)
            if currency == nil { confidence -= Penalty.unknownCurrency }
        }
        currency = currency ?? amount?.currency ?? defaults.currency

        // Dates: as written, else the arrival time in the bank's time zone.
        let arrival = message.receivedAt.map { Self.local($0, in: defaults.timeZone) }
        var date: LocalDate?
        var time: LocalTime?
        if let text = value(.date) {
            do { date = try parser.date.normalize(text, reference: arrival?.date) } catch {
                return .failed(rule: parser.id, field: .date, error: error)
            }
        }
        if let text = value(.time) {
            do { time = try TimeNormalizer.normalize(text) } catch {
                return .failed(rule: parser.id, field: .time, error: error)
            }
        }
        if date == nil {
            if let arrival {
                date = arrival.date
                if time == nil { time = arrival.time }
                confidence -= Penalty.dateFromArrival
            } else {
                confidence -= Penalty.noDate
            }
        }

        var merchant: String?
        if let text = value(.merchant) {
            do { merchant = CardNumberMasker.mask(try MerchantNormalizer.normalize(text)) } catch {
                confidence -= Penalty.badOptionalField
            }
        }

        var account: Transaction.AccountReference?
        for (field, type) in [(FieldName.card, "card"), (.account, "account"),
                              (.last4, rule.accountType ?? (rule.channel == "card" ? "card" : "account"))] {
            guard account == nil, let text = value(field) else { continue }
            do { account = .init(type: type, last4: try AccountMask.lastDigits(text)) } catch {
                confidence -= Penalty.badOptionalField
            }
        }

        var balance: String?
        if let text = value(.balance) {
            do { balance = try parser.amount.normalize(text).plainString } catch {
                confidence -= Penalty.badOptionalField
            }
        }

        let reference = value(.reference).map { CardNumberMasker.mask(Self.collapsingWhitespace($0)) }
        let channel = value(.channel)?.lowercased() ?? rule.channel

        var direction = rule.direction?.value
        if let word = value(.direction) { direction = Self.direction(ofWord: word) ?? direction }
        if direction == nil {
            switch amount?.sign {
            case .credit: direction = .credit
            case .debit, .negative: direction = .debit
            case nil: confidence -= Penalty.noDirection
            }
        }

        confidence = max(0, min(1, (confidence * 100).rounded() / 100))
        let status: Transaction.Status = amount == nil ? .pending
            : confidence < Self.reviewThreshold ? .review : .ok
        let amountText = amount?.plainString
        let key = StableHash.hex(parts: [message.id, parser.id, amountText ?? "", date?.description ?? "",
                                       time?.description ?? "", account?.last4 ?? ""])
        return .transaction(Transaction(
            messageID: message.id, messageChannel: message.channel, sender: message.sender,
            receivedAt: message.receivedAt, file: message.file, offset: message.offset,
            rule: parser.id, bank: parser.bankID, direction: direction, kind: rule.kind?.value,
            amount: amount?.value, amountText: amountText, currency: currency, date: date, time: time,
            merchant: merchant, account: account, balance: balance, reference: reference, channel: channel,
            category: nil, subcategory: nil, confidence: confidence, status: status,
            idempotencyKey: key, duplicateOf: nil))
    }

    /// "debited", "Spent", "CR" → a direction.
    static func direction(ofWord word: String) -> Direction? {
        let lowered = word.lowercased().trimmingCharacters(in: .whitespacesAndNewlines.union(.punctuationCharacters))
        switch lowered {
        case "debited", "debit", "dr", "spent", "paid", "sent", "withdrawn", "charged", "deducted", "used",
             "purchase", "transferred", "debitado", "belastet", "abgebucht":
            return .debit
        case "credited", "credit", "cr", "received", "deposited", "refunded", "refund", "reversed", "added",
             "creditado", "gutgeschrieben":
            return .credit
        default:
            return nil
        }
    }

    /// The local date and time of an instant in a zone, by arithmetic on days since
    /// 1970 (a `Calendar` per message cost more than the whole match).
    static func local(_ date: Date, in zone: TimeZone) -> (date: LocalDate?, time: LocalTime?) {
        let seconds = Int(date.timeIntervalSince1970.rounded(.down)) + zone.secondsFromGMT(for: date)
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let inDay = seconds - days * 86_400
        return (LocalDate(daysSinceEpoch: days),
                LocalTime(hour: inDay / 3600, minute: inDay / 60 % 60, second: inDay % 60))
    }

    static func collapsingWhitespace(_ text: String) -> String {
        text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
}
