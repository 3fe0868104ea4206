/// Turns currency symbols, abbreviations, names and codes as banks write them into ISO 4217 codes,
/// from CLDR's data (`CurrencyTable`).
///
/// Forms shared by several currencies (`$`, `¥`, `kr`, `Rs`, `£`, `C$`, `元`, `CFA`, `Dh`, `Bs`)
/// are resolved with the ISO 3166-1 alpha-2 country of the bank or user.
public enum CurrencyNormalizer {
    /// ISO 4217 code for a symbol, abbreviation, name or code ("₹", "Rs", "Rs.", "INR", "$", "US$",
    /// "£", "€", "Rp", "R$", "¥", "AED", "Dhs", "S$", "RM", "kr", "zł", "Ksh", "บาท", …),
    /// case-insensitive, surrounding whitespace and one trailing dot ignored.
    ///
    /// A shared form is resolved by `country` (any case): `$` gives the country's own dollar or peso
    /// (CA→CAD, MX→MXN, …), and USD where the country has none; `Rs` gives INR, PKR, LKR, NPR, MUR
    /// or SCR. Returns nil when the text is not a known currency.
    public static func code(for raw: String, country: String?) -> String? {
        reading(of: raw, country: country)?.code
    }

    /// `code(for:country:)`, saying whether the country decided a shared form (`certain`).
    public static func reading(of raw: String, country: String?) -> CurrencyTable.Reading? {
        let trimmed = NormalizingText.trimmed(raw)
        guard !trimmed.isEmpty, trimmed.unicodeScalars.count <= 40 else { return nil }
        let key = trimmed.lowercased()
        let countryCode = country.map { NormalizingText.trimmed($0).uppercased() }
        if let found = CurrencyTable.standard.reading(ofLowercased: key, country: countryCode) { return found }
        if key.hasSuffix("."), key.count > 1 {
            return CurrencyTable.standard.reading(ofLowercased: String(key.dropLast()), country: countryCode)
        }
        return nil
    }

    /// The everyday currency of a country ("IN" → "INR", any case), for bank defaults. nil when unknown.
    public static func defaultCode(forCountry country: String) -> String? {
        CurrencyTable.standard.countries[NormalizingText.trimmed(country).uppercased()]?.first
    }

    /// Whether `code` is an ISO 4217 code of a currency in circulation, or replaced in the last six
    /// years (upper case, e.g. "INR").
    public static func isKnownCode(_ code: String) -> Bool {
        CurrencyTable.standard.currencies[code] != nil
    }

    /// Digits after the decimal mark as people write the currency: 3 for BHD, KWD, OMR, JOD, TND,
    /// LYD; 0 for JPY, KRW, VND, CLP, IQD, …; 2 for most. 2 for an unknown code.
    public static func minorUnitDigits(of code: String) -> Int {
        CurrencyTable.standard.currencies[code]?.digits ?? 2
    }

    /// Whether the currency has 3 minor-unit digits: `minorUnitDigits(of:) == 3`, as a switch of
    /// short-string comparisons, since hashing into the table showed up for every amount. A test
    /// keeps it in step with the data.
    static func hasThreeDecimals(_ code: String) -> Bool {
        switch code {
        case "BHD", "JOD", "KWD", "LYD", "OMR", "TND": true
        default: false
        }
    }

    /// Whether the currency is written without decimals (`minorUnitDigits(of:) == 0`: JPY, KRW, VND,
    /// XOF, UGX, …), as a switch like `hasThreeDecimals(_:)`; a test keeps it in step with the data.
    static func hasNoDecimals(_ code: String) -> Bool {
        switch code {
        case "AFN", "ALL", "BIF", "CLP", "DJF", "GNF", "IQD", "IRR", "ISK", "JPY", "KMF", "KPW", "KRW", "LAK",
             "LBP", "MGA", "MMK", "PYG", "RSD", "RWF", "SLL", "SOS", "SYP", "UGX", "VND", "VUV", "XAF", "XOF",
             "XPF", "YER": true
        default: false
        }
    }
}

/// Where a currency is read: the country that resolves shared forms, and that country's own ways of
/// writing currencies (its profile's `symbols`: "N" for naira in Nigeria), which come first.
public struct CurrencyScope: Sendable {
    /// ISO 3166-1 alpha-2 country, upper case; nil when unknown.
    public let country: String?
    /// Lower-cased local forms to ISO 4217 codes.
    public let local: [String: String]
    /// Lower-cased forms other countries' profiles write, each naming one currency wherever it is
    /// written ("MT", the metical): read when neither the country nor CLDR knows the form, so that a
    /// message read as one country's ("MPESA" is Kenya's sender id, and Mozambique's) keeps the
    /// money another's profile names. `WORLD_CURRENCY` matches these forms in every pattern.
    public let elsewhere: [String: String]

    /// A scope for a country (any case), its local forms (any case) and other countries' forms.
    public init(country: String?, local: [String: String] = [:], elsewhere: [String: String] = [:]) {
        self.country = country.map { NormalizingText.trimmed($0).uppercased() }
        self.local = Dictionary(local.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
        self.elsewhere = Dictionary(elsewhere.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
    }

    /// The currency written as `raw`: a local form of the country (certain), else CLDR's reading,
    /// else another country's form (not certain).
    public func reading(of raw: String) -> CurrencyTable.Reading? {
        func lookUp(_ table: [String: String]) -> String? {
            guard !table.isEmpty else { return nil }
            let key = NormalizingText.trimmed(raw).lowercased()
            return table[key] ?? (key.hasSuffix(".") ? table[String(key.dropLast())] : nil)
        }
        if let code = lookUp(local) { return CurrencyTable.Reading(code: code, certain: true) }
        if let reading = CurrencyNormalizer.reading(of: raw, country: country) { return reading }
        return lookUp(elsewhere).map { CurrencyTable.Reading(code: $0, certain: false) }
    }
}
