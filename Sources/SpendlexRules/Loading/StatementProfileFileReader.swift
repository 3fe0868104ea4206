import Yams

/// Reads a statement profile file (top-level key `statement`), every problem a located diagnostic:
/// unknown keys, a column naming no header cell, neither an amount nor debit and credit
/// columns, a delimiter that is not one character, an example without a row.
enum StatementProfileFileReader {
    static let keys = ["statement", "bank", "country", "description", "card", "delimiter", "header", "columns",
                       "date_format", "decimal", "sign", "account_label", "row", "continuation", "skip", "opening_balance",
                       "closing_balance", "examples"]

    static func read(_ root: Node, with reader: inout NodeReader) -> StatementProfile? {
        guard let entries = reader.entries(of: root, context: "a statement profile", allowed: keys),
              let idNode = entries.first(where: { $0.key.value == "statement" })?.value,
              let id = reader.string(idNode, key: "statement") else { return nil }
        var profile = StatementProfile(id: id, location: reader.location(of: root))
        var columnsNode: (key: Located<String>, value: Node)?
        for (key, node) in entries {
            switch key.value {
            case "bank": profile.bank = reader.string(node, key: "bank")?.value
            case "country":
                if let country = reader.string(node, key: "country") {
                    if country.value.count == 2, country.value.allSatisfy({ $0.isUppercase && $0.isASCII }) {
                        profile.country = country.value
                    } else {
                        reader.report(.invalidValue(country.value, for: "country", allowed: "an upper-case ISO 3166 code such as IN",
                                                    at: country.location))
                    }
                }
            case "description": _ = reader.string(node, key: "description")
            case "card": if reader.bool(node, key: "card") == true { profile.accountType = "card" }
            case "delimiter":
                if let delimiter = reader.string(node, key: "delimiter") {
                    let value = delimiter.value == "\\t" ? "\t" : delimiter.value
                    if value.count == 1, let character = value.first { profile.delimiter = character } else {
                        reader.report(.invalidValue(delimiter.value, for: "delimiter", allowed: "one character, such as ',' ';' or '\\t'",
                                                    at: delimiter.location))
                    }
                }
            case "header":
                profile.header = reader.list(node, key: "header").compactMap { reader.string($0, key: "a header cell") }
            case "columns":
                columnsNode = (key, node)
            case "date_format": profile.dateFormat = reader.string(node, key: "date_format")
            case "decimal":
                if let decimal = reader.string(node, key: "decimal") {
                    if ["point", "comma"].contains(decimal.value) { profile.decimal = decimal.value } else {
                        reader.report(.invalidValue(decimal.value, for: "decimal", allowed: "point or comma", at: decimal.location))
                    }
                }
            case "sign":
                if let sign = reader.choice(node, key: "sign", as: StatementProfile.Sign.self) { profile.sign = sign.value }
            case "account_label": profile.accountLabel = reader.string(node, key: "account_label")?.value
            case "row": profile.row = reader.string(node, key: "row")
            case "continuation": profile.continuation = reader.string(node, key: "continuation")
            case "skip": profile.skip = reader.list(node, key: "skip").compactMap { reader.string($0, key: "a skip pattern") }
            case "opening_balance": profile.openingBalance = reader.string(node, key: "opening_balance")
            case "closing_balance": profile.closingBalance = reader.string(node, key: "closing_balance")
            case "examples":
                for example in reader.list(node, key: "examples") {
                    if let read = readExample(example, with: &reader) { profile.examples.append(read) }
                }
            default: break
            }
        }
        if profile.header.isEmpty {
            reader.report(.missingKey("header", in: "statement profile '\(id.value)'", at: profile.location))
        }
        if let (key, node) = columnsNode {
            let allowed = StatementProfile.Column.allCases.map(\.rawValue)
            for (name, value) in reader.entries(of: node, context: "columns", allowed: allowed) ?? [] {
                guard let column = StatementProfile.Column(rawValue: name.value), let cell = reader.string(value, key: name.value)
                else { continue }
                if !profile.header.isEmpty, !profile.header.contains(where: { $0.value == cell.value }) {
                    reader.report(.invalidValue(cell.value, for: "\(name.value) column",
                                                allowed: "a cell of the header (\(profile.header.map(\.value).joined(separator: ", ")))",
                                                at: cell.location))
                    continue
                }
                profile.columns[column] = cell
            }
            if profile.columns[.date] == nil {
                reader.report(.missingKey("date", in: "the columns of statement profile '\(id.value)'", at: key.location))
            }
            if profile.columns[.amount] == nil && profile.columns[.debit] == nil && profile.columns[.credit] == nil {
                reader.report(.missingKey("amount (or debit and credit)", in: "the columns of statement profile '\(id.value)'",
                                          at: key.location))
            }
        } else if profile.row == nil {
            reader.report(.missingKey("columns", in: "statement profile '\(id.value)'", at: profile.location))
        }
        return profile
    }

    private static func readExample(_ node: Node, with reader: inout NodeReader) -> StatementProfile.Example? {
        guard let entries = reader.entries(of: node, context: "a statement example", allowed: ["row", "expect"]) else { return nil }
        guard let rowNode = entries.first(where: { $0.key.value == "row" })?.value, let row = reader.string(rowNode, key: "row") else {
            reader.report(.missingKey("row", in: "a statement example", at: reader.location(of: node)))
            return nil
        }
        var expect: [(field: Located<ExpectedField>, value: Located<String>)] = []
        if let expectNode = entries.first(where: { $0.key.value == "expect" })?.value {
            for (field, value) in reader.namedEntries(of: expectNode, key: "expect", expected: "fields to values") ?? [] {
                guard let known = ExpectedField(rawValue: field.value) else {
                    reader.report(.unknownField(field.value, at: field.location))
                    continue
                }
                if let text = reader.string(value, key: field.value) { expect.append((Located(known, at: field.location), text)) }
            }
        }
        return StatementProfile.Example(row: row, expect: expect)
    }
}
