import Foundation
import SpendlexRules

/// Normalizes one parser's raw captures into a `Transaction`, recording each doubt about it
/// in its `Confidence`.
enum TransactionBuilder {
    /// `owner` is the bank the transaction is recorded for: the parser's own bank, or the bank a
    /// fallback file reads on behalf of; its country, currency, date order and zone are the defaults.
    /// `doubts` are those found before the parser ran (how the country was known). `defaults`, when
    /// given, replace the owner's (a format recognised for a sender of no known country reads with
    /// its own bank's).
    static func build(parser: CompiledParser, owner: CompiledBank, raw: FieldValues, message: Message,
                      source: BankSource, policy: ConfidencePolicy, doubts: Confidence = Confidence(),
                      defaults: BankDefaults? = nil) -> ParseOutcome {
        let defaults = defaults ?? owner.defaults
        var confidence = doubts
        if parser.isFallback {
            confidence.insert(.fallbackParser)
        } else if case .perField = parser.matcher {
            confidence.insert(.perFieldParser)
        }
        switch source {
        case .sender: break
        case .text: confidence.insert(.bankFromText)
        case .none: confidence.insert(.noBank)
        }
        let hasConstants = !parser.constants.isEmpty
        func value(_ field: FieldName) -> String? {
            raw[field] ?? (hasConstants ? parser.constants[field] : nil)
        }

        // Amount: required; a malformed one makes the message an error. Its parts are taken
        // apart once: each `amount?.part` of an optional struct copied the whole of it.
        var amount: (value: Decimal, text: String, sign: AmountSign?, currency: String?, certain: Bool)?
        if let text = value(.amount) {
            do {
                let parsed = try parser.amount.normalize(text)
                // A card number read as the amount ("Rs.4111111111111111") is no amount, and
                // must not reach an output whole.
                if CardNumberMasker.mask(parsed.plainString) != parsed.plainString {
                    return .failed(rule: parser.id, field: .amount,
                                   error: FieldError(.amountInvalid, "the amount is a card number, not an amount"))
                }
                amount = (parsed.value, parsed.plainString, parsed.sign, parsed.currency, parsed.currencyCertain)
            } catch {
                return .failed(rule: parser.id, field: .amount, error: error)
            }
        }

        var balance: String?
        var balanceCurrency: (code: String, certain: Bool)?
        if let text = value(.balance) {
            do {
                // A balance keeps its sign: an overdrawn account reads "-312.40" (or "312.40 DR").
                let parsed = try parser.amount.normalize(text)
                // A card number read as the balance is no balance (and is not printed).
                if CardNumberMasker.mask(parsed.plainString) != parsed.plainString { throw CardNumberAsFigure() }
                balance = parsed.sign == .negative || parsed.sign == .debit ? "-" + parsed.plainString : parsed.plainString
                balanceCurrency = parsed.currency.map { ($0, parsed.currencyCertain) }
            } catch {
                confidence.insert(.malformedBalance)
            }
        }

        var currency: String?
        if let text = value(.currency) {
            if let reading = parser.amount.currencies.reading(of: text) {
                currency = reading.code
                if !reading.certain { confidence.insert(.ambiguousCurrency) }
            } else {
                confidence.insert(.unknownCurrency)
            }
        }
        if currency == nil, let written = amount?.currency {
            currency = written
            if amount?.certain == false {
                // "$350.00 MXN", "MXN$1,780.54": an ISO code written right after an amount whose
                // symbol several currencies share, or glued before its symbol, names the currency,
                // whatever the pattern captured.
                if let code = Self.codeWritten(after: value(.amount), in: message.text)
                    ?? Self.codeWritten(before: value(.amount), in: message.text),
                   let reading = parser.amount.currencies.reading(of: code), reading.certain {
                    currency = reading.code
                } else {
                    confidence.insert(.ambiguousCurrency)
                }
            }
        }
        // A figure written without its currency ("เงินเข้า 999.63 คงเหลือ 8,236.90 บ.", "credited
        // 1,250.00 ... Avl Bal: USD 4,000.00") is in the account's, which its balance names; a
        // balance's symbol that several currencies share yields to the country's currency.
        if currency == nil, value(.amount) != nil, let written = balanceCurrency {
            if written.certain {
                currency = written.code
            } else if defaults.currency == nil {
                currency = written.code
                confidence.insert(.ambiguousCurrency)
            }
        }
        currency = currency ?? defaults.currency
        if currency == nil && value(.currency) == nil { confidence.insert(.noCurrency) }

        // Dates: as written, else the arrival time in the bank's time zone.
        let arrival = message.receivedAt.map { Self.local($0, in: defaults.timeZone) }
        var date: LocalDate?
        var time: LocalTime?
        if let text = value(.date) {
            do {
                date = try parser.date.normalize(text, reference: arrival?.date)
                // No country decides the order of "05/11/2026": the reading nearest the arrival.
                if parser.isFallback, defaults.country == nil, let read = date,
                   let other = Self.dateInOtherOrder(text, than: parser.date, reference: arrival?.date), other != read {
                    confidence.insert(.ambiguousDateOrder)
                    if let arrival = arrival?.date, Self.distance(other, arrival) < Self.distance(read, arrival) { date = other }
                }
            } catch {
                // A bank's parser knows its date order: a date it cannot read is an error. The
                // fallback guesses the order: "11/20/2026" is read month first, else left out.
                // "23-05" with no arrival time: the year cannot be known; the date is left out, doubted.
                if error.id == FieldError.Kind.dateWithoutYear.rawValue {
                    confidence.insert(.dateWithoutYear)
                }
                guard parser.isFallback || confidence.contains(.dateWithoutYear) else {
                    return .failed(rule: parser.id, field: .date, error: error)
                }
                if !confidence.contains(.dateWithoutYear) {
                    date = Self.dateInOtherOrder(text, than: parser.date, reference: arrival?.date)
                    if date == nil { confidence.insert(.malformedDate) }
                }
            }
        }
        if let text = value(.time) {
            do { time = try TimeNormalizer.normalize(text) } catch {
                // The fallback's guess at a time may be wrong; it is left out, not an error.
                if !parser.isFallback { return .failed(rule: parser.id, field: .time, error: error) }
            }
        }
        if let written = date {
            // A date more than a day after the message arrived (or after now) is a misread.
            let today = arrival?.date ?? Self.local(Date(), in: defaults.timeZone).date
            if let today, written.daysSinceEpoch > today.daysSinceEpoch + 1 {
                confidence.insert(.futureDate)
            }
        } else if confidence.contains(.malformedDate) || confidence.contains(.dateWithoutYear) {
            // Not a real date: the arrival time is no substitute for what the text got wrong.
        } else if let arrival {
            date = arrival.date
            // An alert arrives after its transaction: a time the text gives more than an hour later
            // than the arrival's ("… 22:53" arriving at 01:54 in Riyadh) was the day before. Only in
            // a known time zone: with none, the arrival's clock is UTC's, not the text's.
            if let written = time, let arrived = arrival.time, let day = date, defaults.country != nil,
               Self.minutes(written) > Self.minutes(arrived) + 60 {
                date = LocalDate(daysSinceEpoch: day.daysSinceEpoch - 1)
            }
            if time == nil { time = arrival.time }
            confidence.insert(.dateFromArrival)
        } else {
            confidence.insert(.noDate)
        }

        var merchant: String?
        var merchantRaw: String?
        if let text = value(.merchant) {
            merchantRaw = CardNumberMasker.mask(text)
            do { merchant = CardNumberMasker.mask(try MerchantNormalizer.normalize(NormalizingText.composed(text))) } catch {
                confidence.insert(.emptyMerchant)
            }
        }

        var account: Transaction.AccountReference?
        func readAccount(_ field: FieldName, type: @autoclosure () -> String) {
            guard account == nil, let text = value(field) else { return }
            do { account = .init(type: type(), last4: try AccountMask.lastDigits(text)) } catch {
                confidence.insert(.malformedAccount)
            }
        }
        readAccount(.card, type: "card")
        readAccount(.account, type: "account")
        // A parser that names no account type: a card when its channel, or the channel the text
        // names (the field layer's, for the fallback), is a card ("debited from your Credit Card
        // ending 4315"), an account otherwise.
        readAccount(.last4, type: parser.rule.accountType
                        ?? ((parser.rule.channel ?? value(.channel).map(Self.channelName)) == "card" ? "card" : "account"))
        // A card's kind: the parser's (`account_type: debit_card`), else the words around it; a
        // payment made to a card pays off a credit card.
        if account?.type == "card" {
            account?.cardKind = parser.rule.cardKind ?? raw.cardKind
                ?? ((parser.rule.kind?.value ?? raw.kind) == .cardPayment ? .credit : nil)
        }

        // Digits of other scripts as ASCII ("٠٢٢٠٠٠٦٨٣٧١٦" is 022000683716), before masking: a card
        // number written in Arabic-Indic digits is a card number too.
        let reference = value(.reference).map { raw in
            CardNumberMasker.mask(Self.collapsingWhitespace(NormalizingText.withASCIIDigits(raw) ?? raw))
        }
        // A captured channel as the rule language names channels: "Direct Debit" → "direct_debit".
        let channel = value(.channel).map(Self.channelName) ?? parser.rule.channel

        var direction = parser.rule.direction?.value
        if let word = value(.direction) { direction = Self.direction(ofWord: word) ?? direction }
        // The fallback guesses the direction from its verbs; a refund or a reversal is money coming
        // back, whatever verb came with it ("OTMENA Pokupka", "已撤销向…的付款").
        if parser.isFallback, let kind = raw.kind, kind == .refund || kind == .reversal {
            direction = .credit
        }
        if direction == nil {
            switch amount?.sign {
            case .credit: direction = .credit
            case .debit, .negative: direction = .debit
            case nil: confidence.insert(.noDirection)
            }
        }

        let score = confidence.score
        let missingRequired = amount == nil || parser.required.contains { field in
            switch field {
            case .amount: amount == nil
            case .currency: currency == nil
            case .date: date == nil
            case .time: time == nil
            case .merchant: merchant == nil
            case .account, .card, .last4: account == nil
            case .balance: balance == nil
            case .reference: reference == nil
            case .channel: channel == nil
            case .direction: direction == nil
            }
        }
        let status = policy.status(score: score, missingRequired: missingRequired)
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
            rule: parser.id, bank: owner.id, direction: direction, kind: parser.rule.kind?.value ?? raw.kind,
            amount: amount?.value, amountText: amountText, currency: currency, date: date, time: time,
            merchant: merchant, merchantRaw: merchantRaw, account: account, balance: balance, reference: reference, channel: channel,
            category: nil, subcategory: nil, confidence: score, confidenceParts: confidence, status: status,
            idempotencyKey: key.hex, duplicateOf: nil))
    }

    /// Days between two dates, a date more than a day after `arrival` (a misread, most likely)
    /// counting double.
    static func distance(_ date: LocalDate, _ arrival: LocalDate) -> Int {
        let days = date.daysSinceEpoch - arrival.daysSinceEpoch
        return days > 1 ? 2 * days : abs(days)
    }

    /// A numeric date read day-first if `normalizer` reads month-first, and the reverse.
    static func dateInOtherOrder(_ text: String, than normalizer: DateNormalizer, reference: LocalDate?) -> LocalDate? {
        let other: DateOrder = normalizer.order == .monthDayYear ? .dayMonthYear : .monthDayYear
        return try? DateNormalizer(order: other).normalize(text, reference: reference)
    }

    /// "Direct Debit", "standing-order" → "direct_debit", "standing_order".
    static func channelName(_ text: String) -> String {
        text.lowercased().split(whereSeparator: { $0 == " " || $0 == "-" || $0 == "_" }).joined(separator: "_")
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

    /// Minutes since midnight.
    static func minutes(_ time: LocalTime) -> Int { time.hour * 60 + time.minute }

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

/// A card number where a figure (a balance) was captured.
private struct CardNumberAsFigure: Error {}

extension TransactionBuilder {
    /// Three capital letters right after the amount as written in the text (a space or two
    /// between, then no letter): `"$350.00"` in `"por $350.00 MXN en"` gives `MXN`.
    static func codeWritten(after amount: String?, in text: String) -> String? {
        guard let amount, !amount.isEmpty, let found = text.range(of: amount) else { return nil }
        var rest = text[found.upperBound...].unicodeScalars.drop { $0 == " " || $0 == "\u{A0}" }
        guard text[found.upperBound...].unicodeScalars.count - rest.count <= 2 else { return nil }
        let code = rest.prefix(3)
        guard code.count == 3, code.allSatisfy({ $0.value >= 0x41 && $0.value <= 0x5A }) else { return nil }
        rest = rest.dropFirst(3)
        if let next = rest.first, next.properties.isAlphabetic { return nil }
        return String(String.UnicodeScalarView(code))
    }

    /// The ISO code glued before an amount that starts with a symbol ("MXN$1,780.54": MXN), or nil.
    static func codeWritten(before amount: String?, in text: String) -> String? {
        guard let amount, let symbol = amount.unicodeScalars.first, !symbol.properties.isAlphabetic,
              !(symbol.value >= 0x30 && symbol.value <= 0x39), let found = text.range(of: amount) else { return nil }
        let before = text[..<found.lowerBound].unicodeScalars
        let code = before.suffix(3)
        guard code.count == 3, code.allSatisfy({ $0.value >= 0x41 && $0.value <= 0x5A }) else { return nil }
        if let previous = before.dropLast(3).last, previous.properties.isAlphabetic { return nil }
        return String(String.UnicodeScalarView(code))
    }
}
