import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import SpendlexEngine
import SpendlexRules

/// Reads ISO 20022 `camt.053` bank-to-customer statements (any version, the namespace's
/// version suffix ignored) with Foundation's `XMLParser`: each `<Stmt>`'s account (`IBAN` or
/// other id), currency and servicing bank (`BIC`), its opening (`OPBD`, `PRCD`) and closing
/// (`CLBD`) balances, and each `<Ntry>`: amount and currency, `CdtDbtInd`, booking date (else
/// value date), the bank's reference, the counterparty (the creditor of a debit, the debtor of
/// a credit) and the remittance text. A reversal (`RvslInd`) is kept as a reversal.
enum CAMT053StatementReader {
    static func read(_ text: String, path: String, options: StatementOptions) throws(StatementError) -> Statement {
        let reader = CAMT053Parser(path: path, options: options)
        let parser = XMLParser(data: Data(text.utf8))
        parser.delegate = reader
        if !parser.parse() {
            let why = parser.parserError.map { "\($0.localizedDescription)" } ?? "unreadable XML"
            throw StatementError(path: path, reason: "CAMT.053 XML ends or breaks at line \(parser.lineNumber): \(why)")
        }
        return reader.statement
    }
}

/// The `XMLParser` delegate of `CAMT053StatementReader`: a path of open elements, and the
/// values of the entry or balance being read.
private final class CAMT053Parser: NSObject, XMLParserDelegate {
    let path: String
    let options: StatementOptions
    var statement = Statement(format: .camt053)
    private var stack: [String] = []
    private var text = ""
    private var account: String?
    private var currency: String?
    private var bic: String?
    private var entry: [String: String]?
    private var entryLine = 0
    private var entryNumber = 0
    private var balance: [String: String]?

    init(path: String, options: StatementOptions) {
        self.path = path
        self.options = options
        statement.decimalMark = .point
    }

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]) {
        let local = name.split(separator: ":").last.map(String.init) ?? name
        stack.append(local)
        text = ""
        switch local {
        case "Ntry":
            entry = [:]
            entryNumber += 1
            entryLine = parser.lineNumber
        case "Bal":
            balance = [:]
        case "Amt":
            if let currency = attributes["Ccy"] {
                if entry != nil, entry?["Ccy"] == nil { entry?["Ccy"] = currency }
                if balance != nil { balance?["Ccy"] = currency }
            }
        default:
            break
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        text += string
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        let local = stack.popLast() ?? name
        let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
        text = ""
        let parent = stack.last ?? ""
        if var fields = entry {
            switch local {
            case "Ntry":
                finishEntry(fields)
                entry = nil
                return
            case "Amt" where parent == "Ntry": fields["Amt"] = value
            case "CdtDbtInd" where parent == "Ntry": fields["CdtDbtInd"] = value
            case "RvslInd": fields["RvslInd"] = value
            case "Dt" where parent == "BookgDt", "DtTm" where parent == "BookgDt":
                fields["BookgDt"] = String(value.prefix(10))
            case "Dt" where parent == "ValDt", "DtTm" where parent == "ValDt":
                fields["ValDt"] = String(value.prefix(10))
            case "AcctSvcrRef" where parent == "Ntry": fields["AcctSvcrRef"] = value
            case "NtryRef": fields["NtryRef"] = value
            case "EndToEndId" where value != "NOTPROVIDED": if fields["EndToEndId"] == nil { fields["EndToEndId"] = value }
            case "Nm" where stack.contains("Cdtr") && stack.contains("RltdPties"):
                if fields["Cdtr"] == nil { fields["Cdtr"] = value }
            case "Nm" where stack.contains("Dbtr") && stack.contains("RltdPties"):
                if fields["Dbtr"] == nil { fields["Dbtr"] = value }
            case "Ustrd": fields["Ustrd"] = [fields["Ustrd"], value].compactMap { $0 }.joined(separator: " ")
            case "AddtlNtryInf": fields["AddtlNtryInf"] = value
            default: break
            }
            entry = fields
            return
        }
        if var fields = balance {
            switch local {
            case "Bal":
                finishBalance(fields)
                balance = nil
                return
            case "Cd" where stack.contains("Tp"): fields["Tp"] = value
            case "Amt": fields["Amt"] = value
            case "CdtDbtInd": fields["CdtDbtInd"] = value
            // `<Dt><Dt>2026-10-31</Dt></Dt>`: the inner element has the date, the outer nothing.
            case "Dt" where !value.isEmpty, "DtTm" where !value.isEmpty: fields["Dt"] = String(value.prefix(10))
            default: break
            }
            balance = fields
            return
        }
        switch local {
        case "IBAN" where stack.contains("Acct"): account = value
        case "Id" where parent == "Othr" && stack.contains("Acct") && !stack.contains("Svcr"): if account == nil { account = value }
        case "Ccy" where parent == "Acct": currency = value
        case "BIC" where stack.contains("Svcr"), "BICFI" where stack.contains("Svcr"): bic = value.prefix(8).lowercased()
        default: break
        }
    }

    private func finishEntry(_ fields: [String: String]) {
        guard let amount = fields["Amt"], let date = fields["BookgDt"] ?? fields["ValDt"],
              let indicator = fields["CdtDbtInd"] else {
            statement.skipped.append("\(path):\(entryLine): skipped: an <Ntry> without an amount, a date or CdtDbtInd")
            return
        }
        var direction: Direction = indicator == "DBIT" ? .debit : .credit
        let reversal = fields["RvslInd"] == "true"
        // A reversal's indicator is the original's: the money goes back the other way.
        if reversal { direction = direction == .debit ? .credit : .debit }
        let payee = direction == .debit ? fields["Cdtr"] ?? fields["Dbtr"] : fields["Dbtr"] ?? fields["Cdtr"]
        let ownID = fields["AcctSvcrRef"] ?? fields["NtryRef"]
        statement.entries.append(StatementEntry(
            id: StatementReader.entryID(format: .camt053, account: account, ownID: ownID, path: path, line: entryLine),
            format: StatementFormat.camt053.rawValue, file: path, line: entryLine,
            bank: options.bank ?? bic ?? "statement", account: account, accountType: options.accountType, date: date,
            dateFormat: "yyyy-MM-dd", amount: amount, decimalMark: .point, direction: direction,
            kind: reversal ? .reversal : nil, currency: fields["Ccy"] ?? currency, payee: payee,
            description: fields["Ustrd"] ?? fields["AddtlNtryInf"], reference: fields["EndToEndId"] ?? ownID))
    }

    private func finishBalance(_ fields: [String: String]) {
        guard let amount = fields["Amt"], let type = fields["Tp"] else { return }
        let signed = (fields["CdtDbtInd"] == "DBIT" ? "-" : "") + amount
        switch type {
        case "OPBD", "PRCD":
            // The opening booked balance holds at the start of its day; the previous closing at
            // the end of its own.
            if statement.opening == nil {
                statement.opening = StatementBalance(amount: signed, date: fields["Dt"], dateFormat: "yyyy-MM-dd",
                                                     atStartOfDay: type == "OPBD")
            }
        case "CLBD":
            statement.closing = StatementBalance(amount: signed, date: fields["Dt"], dateFormat: "yyyy-MM-dd")
        default:
            break
        }
    }
}
