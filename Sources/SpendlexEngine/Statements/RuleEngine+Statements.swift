import Foundation
import PCRE2
import SpendlexRules

extension RuleEngine.Worker {
    /// A statement entry as a transaction: its amount, date and balance normalized as a parsed
    /// message's are, its direction from the format or the amount's sign, its merchant from the
    /// payee or the description, its card numbers masked, categorized by the decision tables.
    /// A statement is the bank's record, so a complete entry is confident (1.0); an entry whose
    /// amount or date cannot be read is an error that names the field, never a guess.
    public func read(_ entry: StatementEntry) -> ParseOutcome {
        let rule = "statement.\(entry.format)"
        let amount: ParsedAmount
        do {
            amount = try AmountNormalizer(decimalMark: entry.decimalMark).normalize(entry.amount)
        } catch {
            return .failed(rule: rule, field: .amount, error: error)
        }
        let date: LocalDate
        do {
            date = try DateNormalizer(format: entry.dateFormat, order: entry.dateOrder).normalize(entry.date, reference: entry.dateReference)
        } catch {
            return .failed(rule: rule, field: .date, error: error)
        }
        var direction = entry.direction
        if direction == nil {
            direction = switch amount.sign {
            case .negative, .debit: .debit
            case .credit, nil: .credit
            }
        }
        // A zero-amount line (an authorization, a note) still names its direction; the sign of
        // a value is dropped here, the direction carries it.
        let value = abs(amount.value)
        let currency = entry.currency.map { $0.uppercased() } ?? (amount.currencyCertain ? amount.currency : nil)

        var account: Transaction.AccountReference?
        if let number = entry.account, let last4 = try? AccountMask.lastDigits(number) {
            account = .init(type: entry.accountType, last4: last4)
        }
        var merchantSource = [entry.payee, entry.description].compactMap { $0 }
            .first { !NormalizingText.trimmed($0).isEmpty }
        var reference = entry.reference.map(NormalizingText.trimmed).flatMap { $0.isEmpty ? nil : CardNumberMasker.mask($0) }
        // A description that names its reference ("Paid to Swiggy UPI Ref No: 631245678901", a
        // wallet's line under the payee): found by the field layer's reference finders, as in a
        // message; what comes before it names the payee.
        if reference == nil, entry.payee == nil, let description = entry.description,
           let (found, labelStart) = labelledReference(in: description) {
            reference = CardNumberMasker.mask(found)
            let before = NormalizingText.trimmed(description.utf8Slice(0..<labelStart))
            if !before.isEmpty { merchantSource = before }
        }
        let merchant = merchantSource.flatMap { raw in
            (try? MerchantNormalizer.normalize(raw)).map(CardNumberMasker.mask)
        }
        // `plainString` is unsigned and, for an amount read from plain text, that text: no
        // `Decimal` is printed (that was a tenth of importing a large CSV).
        let balance = entry.balance.flatMap { raw -> String? in
            guard !NormalizingText.trimmed(raw).isEmpty,
                  let parsed = try? AmountNormalizer(decimalMark: entry.decimalMark).normalize(raw) else { return nil }
            return (parsed.sign == .negative || parsed.sign == .debit ? "-" : "") + parsed.plainString
        }
        let amountText = amount.plainString
        var key = StableHash.FNV1a()
        key.combine(part: entry.id)
        key.combine(part: rule)
        key.combine(part: amountText)
        key.combine(part: date.description)
        key.combine(part: account?.last4 ?? "")
        var transaction = Transaction(
            messageID: entry.id, messageChannel: .statement, sender: entry.bank, receivedAt: nil, file: entry.file,
            offset: nil, rule: rule, bank: entry.bank, direction: direction, kind: entry.kind, amount: value,
            amountText: amountText, currency: currency, date: date, time: nil, merchant: merchant,
            merchantRaw: merchantSource.map(CardNumberMasker.mask), account: account, balance: balance,
            reference: reference, channel: nil, category: nil, subcategory: nil, confidence: 1, status: .ok,
            idempotencyKey: key.hex, duplicateOf: nil)
        if currency == nil {
            transaction.confidenceParts.insert(.noCurrency)
            transaction.confidence = transaction.confidenceParts.score
        }
        return categorized(.transaction(transaction))
    }

    /// The reference a text names with a label, by the field layer's reference finders, and
    /// where its label starts; nil without a layer or a labelled reference.
    func labelledReference(in text: String) -> (reference: String, labelStart: Int)? {
        guard let finders = rules.fieldLayer?.finders.first(where: { $0.field == .reference })?.patterns else { return nil }
        for finder in finders {
            guard let whole = try? finder.pattern.firstRange(in: text, from: 0, upTo: text.utf8.count, scratch: scratch),
                  let value = scratch.lastGroup(finder.group) ?? Optional(whole) else { continue }
            return (text.utf8Slice(value), whole.lowerBound)
        }
        return nil
    }
}
