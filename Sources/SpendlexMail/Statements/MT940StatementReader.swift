import Foundation
import SpendlexEngine
import SpendlexRules

/// Reads SWIFT MT940 customer statements: `:25:` the account, `:60F:`/`:60M:` the opening
/// balance, each `:61:` a statement line (value date, optional entry date, `D`/`C`/`RD`/`RC`
/// mark, amount with a decimal comma, transaction type, references) with its `:86:`
/// information to the account owner, `:62F:`/`:62M:` the closing balance. Fields run on over
/// the lines up to the next `:tag:`; several statements in one file follow one another.
enum MT940StatementReader {
    static func read(_ text: String, path: String, options: StatementOptions) throws(StatementError) -> Statement {
        var statement = Statement(format: .mt940)
        statement.decimalMark = .comma
        // Fields with the line each starts on.
        var fields: [(tag: String, value: String, line: Int)] = []
        var bic: String?
        for (offset, raw) in StatementReader.lines(text).enumerated() {
            var line = String(raw)
            if line.hasPrefix("{1:") {
                // Block 1: `{1:F01BANKBEBBAXXX...}`: the sending bank's BIC is 8 characters after `F01`.
                let body = line.dropFirst(3)
                if body.count >= 11 { bic = String(body.dropFirst(3).prefix(8)).lowercased() }
                if let start = line.range(of: "{4:") { line = String(line[start.upperBound...]) } else { continue }
            }
            if line.hasPrefix("-}") || line == "-" { continue }
            if line.hasPrefix(":"), let close = line.dropFirst().firstIndex(of: ":") {
                let tag = String(line[line.index(after: line.startIndex)..<close])
                fields.append((tag, String(line[line.index(after: close)...]), offset + 1))
            } else if !fields.isEmpty, !line.isEmpty {
                fields[fields.count - 1].value += "\n" + line
            }
        }
        guard fields.contains(where: { $0.tag == "61" || $0.tag.hasPrefix("60") }) else {
            throw StatementError(path: path, reason: "an MT940 file without balance or statement lines")
        }
        var account: String?
        var currency: String?
        var pending: (line: Int, value: String)?
        func finish(_ line: (line: Int, value: String), information: String?) {
            guard let entry = statementLine(line.value, information: information, at: line.line, account: account,
                                            currency: currency, path: path, options: options, bic: bic) else {
                statement.skipped.append("\(path):\(line.line): skipped: a :61: line that cannot be read: \(line.value.prefix(40))")
                return
            }
            statement.entries.append(entry)
        }
        for field in fields {
            if field.tag != "86", let line = pending {
                finish(line, information: nil)
                pending = nil
            }
            switch field.tag {
            case "25":
                account = field.value.trimmingCharacters(in: .whitespacesAndNewlines)
            case "60F", "60M":
                if let balance = balance(field.value) {
                    currency = balance.currency
                    if statement.opening == nil { statement.opening = balance.balance }
                }
            case "62F", "62M":
                if let balance = balance(field.value) { statement.closing = balance.balance }
            case "61":
                pending = (field.line, field.value)
            case "86":
                if let line = pending {
                    finish(line, information: field.value)
                    pending = nil
                }
            default:
                break
            }
        }
        if let line = pending { finish(line, information: nil) }
        return statement
    }

    /// A balance field (`C261101EUR1234,56`): its signed amount, date and currency.
    static func balance(_ value: String) -> (balance: StatementBalance, currency: String)? {
        let characters = Array(value.trimmingCharacters(in: .whitespacesAndNewlines))
        guard characters.count > 10, characters[0] == "C" || characters[0] == "D" else { return nil }
        let date = String(characters[1..<7])
        let currency = String(characters[7..<10])
        let amount = String(characters[10...])
        return (StatementBalance(amount: (characters[0] == "D" ? "-" : "") + amount, date: date, dateFormat: "yyMMdd"), currency)
    }

    /// One `:61:` statement line as an entry, with its `:86:` information.
    static func statementLine(_ value: String, information: String?, at line: Int, account: String?, currency: String?,
                              path: String, options: StatementOptions, bic: String?) -> StatementEntry? {
        let firstLine = value.split(separator: "\n", omittingEmptySubsequences: false).first.map(String.init) ?? value
        let characters = Array(firstLine)
        var index = 0
        func digits(_ count: Int) -> String? {
            guard index + count <= characters.count, characters[index..<(index + count)].allSatisfy(\.isNumber) else { return nil }
            defer { index += count }
            return String(characters[index..<(index + count)])
        }
        guard let valueDate = digits(6) else { return nil }
        _ = digits(4)  // the entry (booking) date, MMDD: the value date is the one with a year
        var direction: Direction
        var reversal = false
        if index + 1 < characters.count, characters[index] == "R", characters[index + 1] == "C" || characters[index + 1] == "D" {
            reversal = true
            direction = characters[index + 1] == "C" ? .debit : .credit
            index += 2
        } else if index < characters.count, characters[index] == "C" || characters[index] == "D" {
            direction = characters[index] == "C" ? .credit : .debit
            index += 1
        } else {
            return nil
        }
        // An optional funds code: the third letter of the currency.
        if index < characters.count, characters[index].isLetter { index += 1 }
        let amountStart = index
        while index < characters.count, characters[index].isNumber || characters[index] == "," { index += 1 }
        guard index > amountStart else { return nil }
        let amount = String(characters[amountStart..<index])
        // The transaction type (`NTRF`, `NMSC`, `FCHG`...), then the owner's reference `//` the bank's.
        let type = String(characters[index..<min(index + 4, characters.count)])
        index = min(index + 4, characters.count)
        let references = String(characters[index...]).components(separatedBy: "//")
        let ownerReference = references.first.flatMap { $0 == "NONREF" || $0.isEmpty ? nil : $0 }
        let bankReference = references.count > 1 ? references[1].trimmingCharacters(in: .whitespaces) : nil
        let (payee, description) = informationParts(information)
        let kind: TransactionKind? = reversal ? .reversal : type.hasSuffix("CHG") || type.hasSuffix("COM") ? .fee
            : type.hasSuffix("INT") ? .interest : type.hasSuffix("TRF") ? .transfer : nil
        let ownID = bankReference.flatMap { $0.isEmpty || $0 == "NONREF" ? nil : "\(valueDate):\($0)" }
        return StatementEntry(
            id: StatementReader.entryID(format: .mt940, account: account, ownID: ownID, path: path, line: line),
            format: StatementFormat.mt940.rawValue, file: path, line: line, bank: options.bank ?? bic ?? "statement",
            account: account, accountType: options.accountType, date: valueDate, dateFormat: "yyMMdd", amount: amount,
            decimalMark: .comma, direction: direction, kind: kind, currency: currency, payee: payee,
            description: description, reference: ownerReference ?? bankReference)
    }

    /// The counterparty's name and the remittance text of a `:86:` field: structured as
    /// `/NAME/.../REMI/...` (SEPA, the Netherlands), as `?20`...`?29` text and `?32`/`?33` name
    /// (Germany's GVC layout), or free text (the description, no name).
    static func informationParts(_ information: String?) -> (payee: String?, description: String?) {
        guard let information else { return (nil, nil) }
        let flat = information.replacingOccurrences(of: "\n", with: "")
        if flat.contains("/NAME/") || flat.contains("/REMI/") {
            func part(_ key: String) -> String? {
                guard let start = flat.range(of: "/\(key)/") else { return nil }
                let rest = flat[start.upperBound...]
                // The next `/KEY/` of upper-case letters ends it.
                var end = rest.endIndex
                var search = rest.startIndex
                while let slash = rest[search...].firstIndex(of: "/") {
                    let after = rest[rest.index(after: slash)...]
                    if let next = after.firstIndex(of: "/"), after[..<next].count >= 2,
                       after[..<next].allSatisfy({ $0.isUppercase && $0.isLetter }) {
                        end = slash
                        break
                    }
                    search = rest.index(after: slash)
                }
                let text = rest[..<end].trimmingCharacters(in: CharacterSet.whitespaces.union(CharacterSet(charactersIn: "/")))
                return text.isEmpty ? nil : text
            }
            return (part("NAME"), part("REMI") ?? part("NAME"))
        }
        if flat.contains("?20") || flat.contains("?32") {
            var parts: [String: String] = [:]
            let pieces = flat.components(separatedBy: "?").dropFirst()
            for piece in pieces where piece.count >= 2 {
                parts[String(piece.prefix(2)), default: ""] += piece.dropFirst(2)
            }
            let text = (20...29).compactMap { parts[String($0)] }.joined(separator: " ")
            let name = [parts["32"], parts["33"]].compactMap { $0 }.joined()
            return (name.isEmpty ? nil : name, text.isEmpty ? nil : text)
        }
        let text = flat.trimmingCharacters(in: .whitespaces)
        return (nil, text.isEmpty ? nil : text)
    }
}
