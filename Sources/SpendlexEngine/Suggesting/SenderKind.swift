import Foundation
import PCRE2

/// Who a message comes from, as far as drafting a bank parser is concerned: a bank (or an
/// unknown sender whose message reads like an alert), a person writing about money, a
/// newsletter, or a shop's order mail or receipt. `spendlex suggest` drafts only for banks:
/// a person's "can you send me £20?" or a shop's "Your order #123: £20" is no bank format,
/// and a parser for it would turn chat and receipts into transactions.
///
/// The judgement weighs cues of two sides and the sender's shape (a phone number, an e-mail
/// address); the word lists are knowledge about how such messages are written, kept here.
public enum SenderKind: String, Sendable, Equatable {
    /// A bank, or an unknown sender whose message reads like an alert: drafted.
    case bank
    /// A person: an SMS from a phone number that reads as conversation.
    case person
    /// A newsletter or marketing e-mail.
    case newsletter
    /// A shop's order confirmation, shipping note or receipt.
    case shop

    /// Whether drafts are refused for this kind of sender.
    public var isRefused: Bool { self != .bank }

    /// The kind of sender of `message`, with the reason for a refusal (nil for `.bank`).
    /// `personalSender`: the loaded rules name the sender a person's (a fallback file's
    /// `personal_senders`); a phone number is one too without them.
    public static func classify(_ message: Message, personalSender: Bool = false) -> (kind: SenderKind, reason: String?) {
        let text = (message.subject.map { $0 + "\n" } ?? "") + message.text
        let scratch = MatchScratch()
        let bankCues = count(Cues.bank, in: text, scratch: scratch)
        let sender = message.sender?.trimmingCharacters(in: .whitespaces) ?? ""
        if personalSender || isPhoneNumber(sender) {
            let conversation = count(Cues.conversation, in: text, scratch: scratch)
            if bankCues == 0 || conversation > bankCues {
                return (.person, "a phone number whose text reads as conversation (\(conversation) conversational cue\(conversation == 1 ? "" : "s"), \(bankCues) bank word\(bankCues == 1 ? "" : "s"))")
            }
            return (.bank, nil)
        }
        let isEmail = sender.contains("@") || message.channel == .email || message.subject != nil
        guard isEmail else { return (.bank, nil) }
        let domain = sender.split(separator: "@").last.map { $0.lowercased() } ?? ""
        let bankDomain = (try? Cues.bankDomain.matches(domain, scratch: scratch)) ?? false
        if !bankDomain, count(Cues.order, in: text, scratch: scratch) > 0 {
            return (.shop, "an order, shipping or receipt e-mail from a shop (\(domain.isEmpty ? "no sender" : domain))")
        }
        let newsletter = count(Cues.newsletter, in: text, scratch: scratch)
        if newsletter > 0 && (bankCues < 2 || newsletter > 1) {
            return (.newsletter, "a newsletter or marketing e-mail (unsubscribe or view-in-browser wording)")
        }
        return (.bank, nil)
    }

    /// A telephone number rather than a bank's sender id or short code: an optional `+`, then
    /// eight or more digits, perhaps grouped by spaces, dots, dashes or parentheses.
    static func isPhoneNumber(_ sender: String) -> Bool {
        var digits = 0
        for (index, scalar) in sender.unicodeScalars.enumerated() {
            if ("0"..."9").contains(scalar) {
                digits += 1
            } else if !(scalar == "+" && index == 0) && !" .-()".unicodeScalars.contains(scalar) {
                return false
            }
        }
        return digits >= 8
    }

    /// Non-overlapping matches of `pattern` in `text`.
    private static func count(_ pattern: Pattern, in text: String, scratch: MatchScratch) -> Int {
        let bytes = Array(text.utf8)
        var found = 0
        var offset = 0
        while offset < bytes.count, let match = try? pattern.firstMatch(in: bytes, from: offset, scratch: scratch) {
            found += 1
            offset = max(match.range.upperBound, match.range.lowerBound + 1)
        }
        return found
    }

    /// The words that tell the kinds apart. Constant patterns known to compile.
    enum Cues {
        /// What a bank alert says: money moved on an account or card, a masked number, a balance.
        static let bank = try! Pattern(
            #"(?i)\b(?:debited|credited|debit|credit|a/c|acct|account|card|balance|bal|avl|txn|transaction|withdrawn|withdrawal|deposited|transferred|upi|neft|imps|ref(?:erence)?|contactless|merchant|purchase)\b|(?<![\p{L}\p{N}])[Xx*•]{2,}\d{3,4}\b"#)
        /// What a person writes: the first person, questions, asking the reader, chat words.
        static let conversation = try! Pattern(
            #"(?i)(?:\b(?-i:I|I'm|I'll|I've|I'd)\b|\b(?:me|my|we|us|our|mate|bro|dude|hey|thanks|thx|pls|plz|lol|tonight|tomorrow|yesterday)\b|\?|\b(?:can|could|would|will|did|do) (?:you|u)\b)"#)
        /// A shop's order, shipping or receipt wording, in several languages.
        static let order = try! Pattern(
            #"(?i)\b(?:(?:your|the)\s+order\b|order\s*(?:#|no\.?\s|number\b|id\b)|order\s+confirm(?:ation|ed)|thank(?:s| you) for (?:your (?:order|purchase)|shopping with)|has\s+(?:been\s+)?(?:shipped|dispatched)|tracking\s+number|delivery\s+address|shipping\s+address|(?:tu|su)\s+pedido|votre\s+commande|Ihre\s+Bestellung|seu\s+pedido|pesanan\s+anda)|\b(?:e-?)?receipt\s+(?:for|from|#|no)"#)
        /// A newsletter's or marketing mail's wording.
        static let newsletter = try! Pattern(
            #"(?i)\b(?:unsubscribe|newsletter|view (?:this (?:e-?mail|message) )?in (?:your |a |the )?browser|manage (?:your )?(?:e-?mail )?preferences|email preferences|opt[ -]out|abmelden|se d[ée]sabonner|d[ée]sinscri(?:re|ption)|darse de baja|cancelar (?:a )?inscri[çc][ãa]o)\b"#)
        /// A sender domain that names a bank, a card or a payment service: not a shop.
        static let bankDomain = try! Pattern(
            #"(?i)(?:bank|banco|banque|credit|card|kredit|sparkasse|caixa|finance|financial|building ?society|mutual)"#)
    }
}
