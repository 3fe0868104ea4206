import Foundation
import SpendlexRules

extension Transaction {
    /// Every field given: for modules of this package that rebuild a record they stored
    /// (the ledger's export), so that they write it with `TransactionWriter` as the parser does.
    package init(
        messageID: String, messageChannel: MessageChannel, sender: String?, receivedAt: Date?, file: String?,
        offset: Int?, rule: String, bank: String, direction: Direction?, kind: TransactionKind?, amount: Decimal?,
        amountText: String?, currency: String?, date: LocalDate?, time: LocalTime?, merchant: String?,
        merchantRaw: String? = nil, account: AccountReference?, balance: String?, reference: String?, channel: String?, category: String?,
        subcategory: String?, confidence: Double, status: Status, idempotencyKey: String, duplicateOf: String?
    ) {
        self.messageID = messageID
        self.messageChannel = messageChannel
        self.sender = sender
        self.receivedAt = receivedAt
        self.file = file
        self.offset = offset
        self.rule = rule
        self.bank = bank
        self.direction = direction
        self.kind = kind
        self.amount = amount
        self.amountText = amountText
        self.currency = currency
        self.date = date
        self.time = time
        self.merchant = merchant
        self.merchantRaw = merchantRaw
        self.account = account
        self.balance = balance
        self.reference = reference
        self.channel = channel
        self.category = category
        self.subcategory = subcategory
        self.confidence = confidence
        self.confidenceParts = Confidence()
        self.status = status
        self.idempotencyKey = idempotencyKey
        self.duplicateOf = duplicateOf
    }
}

extension Transaction.AccountReference {
    /// A card or account by its last digits (the memberwise initializer is internal).
    package init(accountType type: String, last4: String, cardKind: CardKind? = nil) {
        self.type = type
        self.last4 = last4
        self.cardKind = type == "card" ? cardKind : nil
    }
}
