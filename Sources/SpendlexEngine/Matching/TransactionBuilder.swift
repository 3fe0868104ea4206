import Foundation
import SpendlexRules

/// Normalizes one parser's raw captures into a `Transaction`, scoring its confidence.
enum TransactionBuilder {
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

    static func build(parser: CompiledParser, defaults: BankDefaults, raw: FieldValues, message: Message,
                      routedBySender: Bool) -> ParseOutcome {
        var confidence = 1.0
        if case .perField = parser.matcher { confidence -= Penalty.perFieldParser }
        if !routedBySender { confidence -= Penalty.routedByText }
        let hasConstants = !parser.constants.isEmpty
        func value(_ field: FieldName) -> String? {
            raw[field] ?? (hasConstants ? parser.constants[field] : nil)
        }

        // Amount: required; a malformed one makes the message an error. Its parts are taken
        // apart once: each `amount?.part` of an optional struct copied the whole of it.
        var amount: (value: Decimal, text: String, sign: AmountSign?, currency: String?)?
        if let text = value(.amount) {
            do {
                let parsed = try parser.amount.normalize(text)
                amount = (parsed.value, parsed.plainString, parsed.sign, parsed.currency)
            } catch {
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
        func readAccount(_ field: FieldName, type: @autoclosure () -> String) {
            guard account == nil, let text = value(field) else { return }
            do { account = .init(type: type(), last4: try AccountMask.lastDigits(text)) } catch {
                confidence -= Penalty.badOptionalField
            }
        }
        readAccount(.card, type: "card")
        readAccount(.account, type: "account")
        readAccount(.last4, type: parser.rule.accountType ?? (parser.rule.channel == "card" ? "card" : "account"))

        var balance: String?
        if let text = value(.balance) {
            do { balance = try parser.amount.normalize(text).plainString } catch {
                confidence -= Penalty.badOptionalField
            }
        }

        let reference = value(.reference).map { CardNumberMasker.mask(Self.collapsingWhitespace($0)) }
        let channel = value(.channel)?.lowercased() ?? parser.rule.channel

        var direction = parser.rule.direction?.value
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
        let amountText = amount?.text
        // StableHash.hex(parts: [message.id, parser.id, amountText ?? "", date?.description ?? "",
        // time?.description ?? "", account?.last4 ?? ""]), without the array and the strings.
        var key = StableHash.FNV1a()
        key.combine(part: message.id)
        key.combine(part: parser.id)
        key.combine(part: amountText ?? "")
        key.startPart()
        date?.withISOBytes { key.combine($0) }
        key.startPart()
        time?.withISOBytes { key.combine($0) }
        key.combine(part: account?.last4 ?? "")
        return .transaction(Transaction(
            messageID: message.id, messageChannel: message.channel, sender: message.sender,
            receivedAt: message.receivedAt, file: message.file, offset: message.offset,
            rule: parser.id, bank: parser.bankID, direction: direction, kind: parser.rule.kind?.value,
            amount: amount?.value, amountText: amountText, currency: currency, date: date, time: time,
            merchant: merchant, account: account, balance: balance, reference: reference, channel: channel,
            category: nil, subcategory: nil, confidence: confidence, status: status,
            idempotencyKey: key.hex, duplicateOf: nil))
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

    /// Whitespace runs (Unicode `White_Space`, by `Character`) as single spaces, trimmed.
    static func collapsingWhitespace(_ text: String) -> String {
        let bytes = text.utf8
        guard bytes.allSatisfy({ $0 < 0x80 }) else {
            return text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        }
        // ASCII: every byte is a character (CR LF aside, whitespace either way), so splitting the
        // bytes gives the same words without `Character` iteration; most references need nothing.
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || (byte >= 0x09 && byte <= 0x0D) }
        if let first = bytes.first, let last = bytes.last, !isSpace(first), !isSpace(last),
           !zip(bytes, bytes.dropFirst()).contains(where: { isSpace($0) && ($0 != 0x20 || isSpace($1)) }) {
            return text
        }
        return String(decoding: Array(Array(bytes).split(whereSeparator: isSpace).joined(separator: [0x20])), as: UTF8.self)
    }
}
