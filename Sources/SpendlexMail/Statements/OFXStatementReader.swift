import Foundation
import SpendlexEngine
import SpendlexRules

/// Reads OFX and QFX statements, 1.x (SGML: leaf elements without end tags) and 2.x (XML),
/// bank (`STMTRS`) and credit-card (`CCSTMTRS`) statements, several accounts in one file.
///
/// One tokenizer for both versions: a tag, then the text up to the next tag, which is a leaf's
/// value when it is not empty; aggregates (`<STMTTRN>` ... `</STMTTRN>`) close explicitly in
/// both. No XML parser reads 1.x, and the two share every element name.
enum OFXStatementReader {
    static func read(_ text: String, path: String, options: StatementOptions) throws(StatementError) -> Statement {
        var statement = Statement(format: .ofx)
        statement.decimalMark = .point
        var organization: String?
        var currency: String?
        var account: String?
        var accountType = options.accountType
        var transaction: [String: String]?
        var transactionLine = 0
        var balance: [String: String]?
        var inLedgerBalance = false
        var sawOFX = false
        var index = 0

        let scalars = Array(text.unicodeScalars)
        var line = 1
        func finishTransaction(_ fields: [String: String], at start: Int) {
            let amount = (fields["TRNAMT"] ?? "").replacingOccurrences(of: ",", with: ".")
            let date = fields["DTPOSTED"] ?? fields["DTUSER"] ?? ""
            guard !amount.isEmpty, date.count >= 8 else {
                statement.skipped.append("\(path):\(start): skipped: an OFX transaction without \(amount.isEmpty ? "TRNAMT" : "DTPOSTED")")
                return
            }
            let reference = fields["FITID"]
            statement.entries.append(StatementEntry(
                id: StatementReader.entryID(format: .ofx, account: account, ownID: reference, path: path, line: start),
                format: StatementFormat.ofx.rawValue, file: path, line: start,
                bank: options.bank ?? organization ?? "statement", account: account, accountType: accountType,
                date: String(date.prefix(8)), dateFormat: "yyyyMMdd", amount: amount, decimalMark: .point,
                kind: kind(of: fields["TRNTYPE"]), currency: fields["CURRENCY"] ?? currency,
                payee: fields["NAME"] ?? fields["PAYEE"], description: fields["MEMO"],
                reference: fields["CHECKNUM"] ?? fields["REFNUM"] ?? reference))
        }

        while index < scalars.count {
            guard scalars[index] == "<" else {
                if scalars[index] == "\n" { line += 1 }
                index += 1
                continue
            }
            // A tag: `<NAME>`, `</NAME>`, `<?OFX ...?>` or `<!-- -->`.
            var end = index + 1
            while end < scalars.count, scalars[end] != ">" { end += 1 }
            guard end < scalars.count else { break }
            let tag = String(String.UnicodeScalarView(scalars[(index + 1)..<end]))
            index = end + 1
            if tag.hasPrefix("?") || tag.hasPrefix("!") { continue }
            let closing = tag.hasPrefix("/")
            let name = (closing ? String(tag.dropFirst()) : tag).split(separator: " ").first.map(String.init)?.uppercased() ?? ""
            if name == "OFX" { sawOFX = true }
            // The text up to the next tag: a leaf element's value.
            var valueEnd = index
            while valueEnd < scalars.count, scalars[valueEnd] != "<" {
                if scalars[valueEnd] == "\n" { line += 1 }
                valueEnd += 1
            }
            let value = entities(String(String.UnicodeScalarView(scalars[index..<valueEnd]))
                .trimmingCharacters(in: .whitespacesAndNewlines))
            index = valueEnd
            if closing {
                switch name {
                case "STMTTRN":
                    if let fields = transaction { finishTransaction(fields, at: transactionLine) }
                    transaction = nil
                case "LEDGERBAL":
                    inLedgerBalance = false
                    if let fields = balance, let amount = fields["BALAMT"] {
                        statement.closing = StatementBalance(amount: amount.replacingOccurrences(of: ",", with: "."),
                                                             date: fields["DTASOF"].map { String($0.prefix(8)) },
                                                             dateFormat: "yyyyMMdd")
                    }
                    balance = nil
                default: break
                }
                continue
            }
            switch name {
            case "STMTTRN":
                transaction = [:]
                transactionLine = line
            case "LEDGERBAL":
                inLedgerBalance = true
                balance = [:]
            case "CCACCTFROM":
                accountType = "card"
            case "BANKACCTFROM":
                accountType = options.accountType
            default:
                guard !value.isEmpty else { break }
                if transaction != nil {
                    // A leaf of the transaction; the first of a name wins (`NAME` before a nested `PAYEE`'s).
                    if transaction?[name] == nil { transaction?[name] = value }
                } else if inLedgerBalance {
                    balance?[name] = value
                } else {
                    switch name {
                    case "ORG": organization = value.lowercased().replacingOccurrences(of: " ", with: "-")
                    case "CURDEF": currency = value.uppercased()
                    case "ACCTID": account = value
                    default: break
                    }
                }
            }
        }
        guard sawOFX else { throw StatementError(path: path, reason: "an OFX header without an <OFX> element") }
        // A 1.x file whose last transaction's end tag is missing (a truncated download): kept,
        // and said.
        if let fields = transaction {
            statement.skipped.append("\(path):\(transactionLine): the file ends inside a transaction (truncated?); read as far as it goes")
            finishTransaction(fields, at: transactionLine)
        }
        return statement
    }

    /// What a `TRNTYPE` says the transaction is; nil for the plain debits and credits.
    static func kind(of type: String?) -> TransactionKind? {
        switch type?.uppercased() {
        case "INT": .interest
        case "DIV": .dividend
        case "FEE", "SRVCHG": .fee
        case "DEP", "DIRECTDEP": .deposit
        case "ATM", "CASH": .withdrawal
        case "POS": .purchase
        case "XFER": .transfer
        case "PAYMENT": .billPayment
        case "DIRECTDEBIT", "REPEATPMT": .mandate
        default: nil
        }
    }

    /// The five XML entities (OFX 2.x; 1.x exporters write them too).
    static func entities(_ text: String) -> String {
        guard text.contains("&") else { return text }
        return text.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&apos;", with: "'")
            .replacingOccurrences(of: "&amp;", with: "&")
    }
}
