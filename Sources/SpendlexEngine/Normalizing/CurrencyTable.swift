import Foundation

/// Every ISO 4217 currency in use, with its minor-unit digits, symbols and names, and the
/// currencies of every country: CLDR's data, written to `Resources/currencies.json` by
/// `scripts/currencies.py` and embedded in the module. Loaded once, on first use.
public struct CurrencyTable: Sendable {
    /// One currency.
    public struct Currency: Sendable, Decodable {
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

    private struct File: Decodable {
        let source: String
        let sharedSymbolDefaults: [String: String]
        let currencies: [String: Currency]
        let countries: [String: [String]]

        enum CodingKeys: String, CodingKey {
            case source, currencies, countries
            case sharedSymbolDefaults = "shared_symbol_defaults"
        }
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
            return try CurrencyTable(json: Data(PackageResources.currencies_json))
        } catch {
            fatalError("Resources/currencies.json is not readable: \(error)")
        }
    }()

    init(json: Data) throws {
        let file = try JSONDecoder().decode(File.self, from: json)
        source = file.source
        currencies = file.currencies
        countries = file.countries
        var written: [String: [String]] = [:]
        for code in file.currencies.keys.sorted() {
            let currency = file.currencies[code]!
            for form in [code] + currency.symbols + currency.names {
                let key = form.lowercased()
                if !written[key, default: []].contains(code) { written[key, default: []].append(code) }
            }
        }
        self.written = written
        sharedDefaults = Dictionary(file.sharedSymbolDefaults.map { ($0.key.lowercased(), $0.value) },
                                    uniquingKeysWith: { first, _ in first })
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
