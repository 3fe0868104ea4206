import Foundation

/// Every ISO 4217 currency in use, with its minor-unit digits, symbols and names, and the
/// currencies of every country: CLDR's data, written to `Resources/currencies.tsv` by
/// `scripts/currencies.py` and embedded in the module. Loaded once, on first use.
public struct CurrencyTable: Sendable {
    /// One currency.
    public struct Currency: Sendable {
        /// Digits after the decimal mark as people write it (CLDR `digits`): 2, 0 (JPY), 3 (BHD).
        public let digits: Int
        /// English name.
        public let name: String
        /// Symbols and written forms ("₹", "Rs"), in any case.
        public let symbols: [String]
        /// Names in the languages of the countries that use it, lower case ("บาท", "naira").
        public let names: [String]
        /// ISO 3166-1 alpha-2 codes of the countries that use it.
        public let countries: [String]
        /// When it stopped being legal tender, for a recently replaced currency (HRK).
        public let until: String?
    }

    /// Where the data comes from ("CLDR 47 via Babel 2.18.0").
    public let source: String
    /// Currencies by ISO 4217 code.
    public let currencies: [String: Currency]
    /// Currencies in use in each country (ISO 3166-1 alpha-2), the oldest first.
    public let countries: [String: [String]]
    /// Lower-cased code, symbol or name → the currencies written so.
    private let written: [String: [String]]
    /// Lower-cased shared symbol → the currency it means when no country decides.
    private let sharedDefaults: [String: String]

    /// The table built into Spendlex. The data is part of the binary: failing to read it is a
    /// build defect, not a user error.
    public static let standard: CurrencyTable = {
        do {
            return try CurrencyTable(tsv: PackageResources.currencies_tsv)
        } catch {
            fatalError("Resources/currencies.tsv is not readable: \(error)")
        }
    }()

    /// A line of the table that cannot be read.
    struct FormatError: Error, CustomStringConvertible {
        let line: Int
        let reason: String
        var description: String { "line \(line): \(reason)" }
    }

    /// Reads the table as `scripts/currencies.py` writes it: tab-separated lines, lists joined
    /// with "|", "#" comments. Read by hand, not as JSON: JSONDecoder's generic decoding took
    /// 3.5 ms of every start-up (9% of `spendlex parse`'s on an empty mailbox); this takes 1.7.
    init(tsv: [UInt8]) throws {
        var source = ""
        var currencies: [String: Currency] = [:]
        var countries: [String: [String]] = [:]
        var sharedDefaults: [String: String] = [:]
        func list(_ field: String) -> [String] {
            field.isEmpty ? [] : field.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
        }
        for (index, line) in tsv.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated()
        where !line.isEmpty && line.first != UInt8(ascii: "#") {
            let fields = line.split(separator: 0x09, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
            switch (fields[0], fields.count) {
            case ("source", 2):
                source = fields[1]
            case ("default", 3):
                sharedDefaults[fields[1].lowercased()] = sharedDefaults[fields[1].lowercased()] ?? fields[2]
            case ("currency", 8):
                guard let digits = Int(fields[2]) else { throw FormatError(line: index + 1, reason: "digits '\(fields[2])'") }
                currencies[fields[1]] = Currency(digits: digits, name: fields[3], symbols: list(fields[4]), names: list(fields[5]),
                                                 countries: list(fields[6]), until: fields[7].isEmpty ? nil : fields[7])
            case ("country", 3):
                countries[fields[1]] = list(fields[2])
            default:
                throw FormatError(line: index + 1, reason: "'\(fields[0])' with \(fields.count) fields")
            }
        }
        self.source = source
        self.currencies = currencies
        self.countries = countries
        self.sharedDefaults = sharedDefaults
        var written: [String: [String]] = [:]
        for code in currencies.keys.sorted() {
            let currency = currencies[code]!
            for form in [code] + currency.symbols + currency.names {
                let key = form.lowercased()
                if !written[key, default: []].contains(code) { written[key, default: []].append(code) }
            }
        }
        self.written = written
    }

    /// How a written currency was read.
    public struct Reading: Equatable, Sendable {
        /// The ISO 4217 code.
        public let code: String
        /// False when the form names several currencies and the country did not decide between
        /// them ("$" with no country, or a Canadian bank's "kr"): the code is a guess.
        public let certain: Bool
    }

    /// Reads a lower-cased, trimmed currency form. A form several currencies share is resolved by
    /// `country`: its own currency when it is among them; else the form's usual meaning ("$" →
    /// USD), uncertain.
    func reading(ofLowercased key: String, country: String?) -> Reading? {
        guard let candidates = written[key] else { return nil }
        if candidates.count == 1 { return Reading(code: candidates[0], certain: true) }
        if let country, let local = countries[country]?.first(where: candidates.contains) {
            return Reading(code: local, certain: true)
        }
        return Reading(code: sharedDefaults[key] ?? candidates[0], certain: false)
    }
}
