/// Turns currency symbols, abbreviations and codes as banks write them into ISO 4217 codes.
///
/// Symbols shared by several currencies (`$`, `¥`, `kr`, `Rs`, `£`, `C$`, `元`, `CFA`, `Dh`, `Bs`)
/// are resolved with the ISO 3166-1 alpha-2 country of the bank or user.
public enum CurrencyNormalizer {
    /// ISO 4217 code for a symbol, abbreviation or code ("₹", "Rs", "Rs.", "INR", "$", "US$", "£", "€",
    /// "Rp", "R$", "¥", "AED", "Dhs", "SGD", "S$", "RM", "kr", "zł", "CHF", "Fr.", …), case-insensitive
    /// for letters, surrounding whitespace and one trailing dot ignored.
    ///
    /// `$`, `¥`, `kr`, `Rs` and the other shared symbols are resolved by `country` (ISO 3166-1 alpha-2,
    /// any case): `$` gives the country's own dollar or peso (US→USD, CA→CAD, AU→AUD, NZ→NZD,
    /// SG→SGD, HK→HKD, MX→MXN, …), USD otherwise; `¥` gives CNY for CN, JPY otherwise; `kr` gives
    /// SEK, NOK, DKK or ISK by country, SEK otherwise; `Rs` gives INR, PKR, LKR, NPR, MUR or SCR by
    /// country, INR otherwise. Returns nil when the text is not a known currency.
    public static func code(for raw: String, country: String?) -> String? {
        let trimmed = NormalizingText.trimmed(raw)
        guard !trimmed.isEmpty, trimmed.unicodeScalars.count <= 12 else { return nil }
        let key = trimmed.lowercased()
        if let found = lookUp(key, country: country) { return found }
        if key.hasSuffix("."), key.count > 1 {
            return lookUp(String(key.dropLast()), country: country)
        }
        return nil
    }

    /// The usual currency of a country ("IN" → "INR", any case), for bank defaults. nil when unknown.
    public static func defaultCode(forCountry country: String) -> String? {
        countryCurrency[NormalizingText.trimmed(country).uppercased()]
    }

    /// Whether `code` is an ISO 4217 code of a currency in circulation (upper case, e.g. "INR").
    public static func isKnownCode(_ code: String) -> Bool {
        isoCodes.contains(code)
    }

    /// Number of minor-unit digits of a currency: 3 for BHD, KWD, OMR, JOD, TND, IQD, LYD; 0 for JPY,
    /// KRW, VND, CLP, …; 2 otherwise.
    public static func minorUnitDigits(of code: String) -> Int {
        if hasThreeDecimals(code) { return 3 }
        if zeroDecimalCodes.contains(code) { return 0 }
        return 2
    }

    // MARK: - Lookup

    private static func lookUp(_ key: String, country: String?) -> String? {
        if let resolution = symbols[key] {
            switch resolution {
            case .fixed(let code): return code
            case .byCountry(let shared): return resolve(shared, country: country)
            }
        }
        if key.utf8.count == 3, key.utf8.allSatisfy({ $0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z") }) {
            let upper = key.uppercased()
            if isoCodes.contains(upper) { return upper }
        }
        return nil
    }

    /// A symbol written the same way for several currencies.
    private enum SharedSymbol {
        case dollar, yen, krona, rupee, pound, cordobaOrCanadian, yuan, cfaFranc, dirham, bolivar
    }

    private enum Resolution {
        case fixed(String)
        case byCountry(SharedSymbol)
    }

    private static func resolve(_ symbol: SharedSymbol, country: String?) -> String {
        let countryCode = country.map { NormalizingText.trimmed($0).uppercased() } ?? ""
        let local = countryCurrency[countryCode]
        switch symbol {
        case .dollar:
            if let local, dollarCurrencies.contains(local) { return local }
            return "USD"
        case .yen:
            return countryCode == "CN" ? "CNY" : "JPY"
        case .krona:
            if let local, ["SEK", "NOK", "DKK", "ISK"].contains(local) { return local }
            return "SEK"
        case .rupee:
            if let local, ["INR", "PKR", "LKR", "NPR", "MUR", "SCR"].contains(local) { return local }
            return "INR"
        case .pound:
            if let local, ["GBP", "EGP", "GIP", "FKP", "SHP", "SSP", "SYP", "LBP"].contains(local) { return local }
            return "GBP"
        case .cordobaOrCanadian:
            return countryCode == "NI" ? "NIO" : "CAD"
        case .yuan:
            return countryCode == "TW" ? "TWD" : "CNY"
        case .cfaFranc:
            return local == "XAF" ? "XAF" : "XOF"
        case .dirham:
            return countryCode == "MA" ? "MAD" : "AED"
        case .bolivar:
            return countryCode == "BO" ? "BOB" : "VES"
        }
    }

    // MARK: - Tables

    /// Keys are lower-cased; a trailing dot is tried both with and without.
    private static let symbols: [String: Resolution] = [
        // Shared symbols, resolved by country.
        "$": .byCountry(.dollar), "＄": .byCountry(.dollar),
        "¥": .byCountry(.yen), "￥": .byCountry(.yen),
        "kr": .byCountry(.krona), "kr.": .byCountry(.krona),
        "rs": .byCountry(.rupee), "rs.": .byCountry(.rupee), "re": .byCountry(.rupee), "re.": .byCountry(.rupee),
        "₨": .byCountry(.rupee), "rupee": .byCountry(.rupee), "rupees": .byCountry(.rupee),
        "£": .byCountry(.pound), "￡": .byCountry(.pound),
        "c$": .byCountry(.cordobaOrCanadian),
        "元": .byCountry(.yuan), "圆": .byCountry(.yuan),
        "cfa": .byCountry(.cfaFranc), "fcfa": .byCountry(.cfaFranc),
        "dh": .byCountry(.dirham), "dhs": .byCountry(.dirham), "dirham": .byCountry(.dirham),
        "dirhams": .byCountry(.dirham),
        "bs": .byCountry(.bolivar),
        // Dollars and pesos with a prefix.
        "us$": .fixed("USD"), "u$s": .fixed("USD"), "usd$": .fixed("USD"), "u$": .fixed("USD"),
        "ca$": .fixed("CAD"), "can$": .fixed("CAD"), "cad$": .fixed("CAD"),
        "a$": .fixed("AUD"), "au$": .fixed("AUD"), "aud$": .fixed("AUD"),
        "nz$": .fixed("NZD"), "s$": .fixed("SGD"), "sg$": .fixed("SGD"), "hk$": .fixed("HKD"),
        "mx$": .fixed("MXN"), "mex$": .fixed("MXN"), "nt$": .fixed("TWD"), "r$": .fixed("BRL"),
        "rd$": .fixed("DOP"), "j$": .fixed("JMD"), "tt$": .fixed("TTD"), "ec$": .fixed("XCD"),
        "bds$": .fixed("BBD"), "bz$": .fixed("BZD"), "fj$": .fixed("FJD"), "n$": .fixed("NAD"),
        "ci$": .fixed("KYD"), "ws$": .fixed("WST"), "t$": .fixed("TOP"),
        // Single-currency symbols.
        "₹": .fixed("INR"), "€": .fixed("EUR"), "euro": .fixed("EUR"), "euros": .fixed("EUR"),
        "gb£": .fixed("GBP"), "e£": .fixed("EGP"), "l£": .fixed("LBP"),
        "jp¥": .fixed("JPY"), "円": .fixed("JPY"), "cn¥": .fixed("CNY"), "rmb": .fixed("CNY"),
        "人民币": .fixed("CNY"),
        "₩": .fixed("KRW"), "원": .fixed("KRW"), "₽": .fixed("RUB"), "руб": .fixed("RUB"),
        "₺": .fixed("TRY"), "tl": .fixed("TRY"), "₪": .fixed("ILS"), "nis": .fixed("ILS"),
        "₫": .fixed("VND"), "₱": .fixed("PHP"), "฿": .fixed("THB"), "₦": .fixed("NGN"),
        "₴": .fixed("UAH"), "грн": .fixed("UAH"), "₸": .fixed("KZT"), "₼": .fixed("AZN"),
        "₾": .fixed("GEL"), "₵": .fixed("GHS"), "gh₵": .fixed("GHS"), "gh¢": .fixed("GHS"),
        "₡": .fixed("CRC"), "₲": .fixed("PYG"), "₭": .fixed("LAK"), "៛": .fixed("KHR"),
        "₮": .fixed("MNT"), "৳": .fixed("BDT"), "tk": .fixed("BDT"),
        "rp": .fixed("IDR"), "rm": .fixed("MYR"), "kč": .fixed("CZK"), "zł": .fixed("PLN"),
        "ft": .fixed("HUF"), "lei": .fixed("RON"), "лв": .fixed("BGN"), "kn": .fixed("HRK"),
        "fr": .fixed("CHF"), "sfr": .fixed("CHF"), "r": .fixed("ZAR"),
        "ksh": .fixed("KES"), "ush": .fixed("UGX"), "tsh": .fixed("TZS"),
        "s/": .fixed("PEN"), "s/.": .fixed("PEN"),
        "sr": .fixed("SAR"), "ر.س": .fixed("SAR"), "qr": .fixed("QAR"), "ر.ق": .fixed("QAR"),
        "bd": .fixed("BHD"), "د.ب": .fixed("BHD"), "kd": .fixed("KWD"), "د.ك": .fixed("KWD"),
        "ro": .fixed("OMR"), "ر.ع": .fixed("OMR"), "jd": .fixed("JOD"), "د.ا": .fixed("JOD"),
        "dt": .fixed("TND"), "د.إ": .fixed("AED"),
    ]

    /// Currencies written with a plain `$` in their own country.
    private static let dollarCurrencies: Set<String> = [
        "USD", "CAD", "AUD", "NZD", "SGD", "HKD", "MXN", "TWD", "ARS", "CLP", "COP", "CUP", "DOP",
        "UYU", "JMD", "BSD", "BBD", "BZD", "BMD", "KYD", "TTD", "GYD", "SRD", "LRD", "NAD", "FJD",
        "SBD", "BND", "XCD", "TOP", "WST",
    ]

    /// Whether the currency has 3 minor-unit digits (BHD, KWD, OMR, JOD, TND, IQD, LYD). A switch
    /// of short-string comparisons: hashing into a set showed up for every amount.
    static func hasThreeDecimals(_ code: String) -> Bool {
        switch code {
        case "BHD", "KWD", "OMR", "JOD", "TND", "IQD", "LYD": true
        default: false
        }
    }

    private static let zeroDecimalCodes: Set<String> = [
        "BIF", "CLP", "DJF", "GNF", "ISK", "JPY", "KMF", "KRW", "PYG", "RWF", "UGX", "VND", "VUV",
        "XAF", "XOF", "XPF",
    ]

    /// ISO 4217 codes in circulation (funds, metals and test codes left out), plus a few recently
    /// replaced ones (HRK, SLL, ZWL, CUC) still seen in old messages.
    private static let isoCodes: Set<String> = [
        "AED", "AFN", "ALL", "AMD", "ANG", "AOA", "ARS", "AUD", "AWG", "AZN", "BAM", "BBD", "BDT",
        "BGN", "BHD", "BIF", "BMD", "BND", "BOB", "BRL", "BSD", "BTN", "BWP", "BYN", "BZD", "CAD",
        "CDF", "CHF", "CLP", "CNY", "COP", "CRC", "CUC", "CUP", "CVE", "CZK", "DJF", "DKK", "DOP",
        "DZD", "EGP", "ERN", "ETB", "EUR", "FJD", "FKP", "GBP", "GEL", "GHS", "GIP", "GMD", "GNF",
        "GTQ", "GYD", "HKD", "HNL", "HRK", "HTG", "HUF", "IDR", "ILS", "INR", "IQD", "IRR", "ISK",
        "JMD", "JOD", "JPY", "KES", "KGS", "KHR", "KMF", "KPW", "KRW", "KWD", "KYD", "KZT", "LAK",
        "LBP", "LKR", "LRD", "LSL", "LYD", "MAD", "MDL", "MGA", "MKD", "MMK", "MNT", "MOP", "MRU",
        "MUR", "MVR", "MWK", "MXN", "MYR", "MZN", "NAD", "NGN", "NIO", "NOK", "NPR", "NZD", "OMR",
        "PAB", "PEN", "PGK", "PHP", "PKR", "PLN", "PYG", "QAR", "RON", "RSD", "RUB", "RWF", "SAR",
        "SBD", "SCR", "SDG", "SEK", "SGD", "SHP", "SLE", "SLL", "SOS", "SRD", "SSP", "STN", "SVC",
        "SYP", "SZL", "THB", "TJS", "TMT", "TND", "TOP", "TRY", "TTD", "TWD", "TZS", "UAH", "UGX",
        "USD", "UYU", "UZS", "VED", "VES", "VND", "VUV", "WST", "XAF", "XCD", "XCG", "XOF", "XPF",
        "YER", "ZAR", "ZMW", "ZWG", "ZWL",
    ]

    /// ISO 3166-1 alpha-2 → the currency in everyday use there.
    private static let countryCurrency: [String: String] = [
        "AD": "EUR", "AE": "AED", "AF": "AFN", "AG": "XCD", "AI": "XCD", "AL": "ALL", "AM": "AMD",
        "AO": "AOA", "AR": "ARS", "AS": "USD", "AT": "EUR", "AU": "AUD", "AW": "AWG", "AX": "EUR",
        "AZ": "AZN", "BA": "BAM", "BB": "BBD", "BD": "BDT", "BE": "EUR", "BF": "XOF", "BG": "EUR",
        "BH": "BHD", "BI": "BIF", "BJ": "XOF", "BL": "EUR", "BM": "BMD", "BN": "BND", "BO": "BOB",
        "BQ": "USD", "BR": "BRL", "BS": "BSD", "BT": "BTN", "BV": "NOK", "BW": "BWP", "BY": "BYN",
        "BZ": "BZD", "CA": "CAD", "CC": "AUD", "CD": "CDF", "CF": "XAF", "CG": "XAF", "CH": "CHF",
        "CI": "XOF", "CK": "NZD", "CL": "CLP", "CM": "XAF", "CN": "CNY", "CO": "COP", "CR": "CRC",
        "CU": "CUP", "CV": "CVE", "CW": "XCG", "CX": "AUD", "CY": "EUR", "CZ": "CZK", "DE": "EUR",
        "DJ": "DJF", "DK": "DKK", "DM": "XCD", "DO": "DOP", "DZ": "DZD", "EC": "USD", "EE": "EUR",
        "EG": "EGP", "EH": "MAD", "ER": "ERN", "ES": "EUR", "ET": "ETB", "FI": "EUR", "FJ": "FJD",
        "FK": "FKP", "FM": "USD", "FO": "DKK", "FR": "EUR", "GA": "XAF", "GB": "GBP", "GD": "XCD",
        "GE": "GEL", "GF": "EUR", "GG": "GBP", "GH": "GHS", "GI": "GIP", "GL": "DKK", "GM": "GMD",
        "GN": "GNF", "GP": "EUR", "GQ": "XAF", "GR": "EUR", "GS": "GBP", "GT": "GTQ", "GU": "USD",
        "GW": "XOF", "GY": "GYD", "HK": "HKD", "HM": "AUD", "HN": "HNL", "HR": "EUR", "HT": "HTG",
        "HU": "HUF", "ID": "IDR", "IE": "EUR", "IL": "ILS", "IM": "GBP", "IN": "INR", "IO": "USD",
        "IQ": "IQD", "IR": "IRR", "IS": "ISK", "IT": "EUR", "JE": "GBP", "JM": "JMD", "JO": "JOD",
        "JP": "JPY", "KE": "KES", "KG": "KGS", "KH": "KHR", "KI": "AUD", "KM": "KMF", "KN": "XCD",
        "KP": "KPW", "KR": "KRW", "KW": "KWD", "KY": "KYD", "KZ": "KZT", "LA": "LAK", "LB": "LBP",
        "LC": "XCD", "LI": "CHF", "LK": "LKR", "LR": "LRD", "LS": "LSL", "LT": "EUR", "LU": "EUR",
        "LV": "EUR", "LY": "LYD", "MA": "MAD", "MC": "EUR", "MD": "MDL", "ME": "EUR", "MF": "EUR",
        "MG": "MGA", "MH": "USD", "MK": "MKD", "ML": "XOF", "MM": "MMK", "MN": "MNT", "MO": "MOP",
        "MP": "USD", "MQ": "EUR", "MR": "MRU", "MS": "XCD", "MT": "EUR", "MU": "MUR", "MV": "MVR",
        "MW": "MWK", "MX": "MXN", "MY": "MYR", "MZ": "MZN", "NA": "NAD", "NC": "XPF", "NE": "XOF",
        "NF": "AUD", "NG": "NGN", "NI": "NIO", "NL": "EUR", "NO": "NOK", "NP": "NPR", "NR": "AUD",
        "NU": "NZD", "NZ": "NZD", "OM": "OMR", "PA": "USD", "PE": "PEN", "PF": "XPF", "PG": "PGK",
        "PH": "PHP", "PK": "PKR", "PL": "PLN", "PM": "EUR", "PN": "NZD", "PR": "USD", "PS": "ILS",
        "PT": "EUR", "PW": "USD", "PY": "PYG", "QA": "QAR", "RE": "EUR", "RO": "RON", "RS": "RSD",
        "RU": "RUB", "RW": "RWF", "SA": "SAR", "SB": "SBD", "SC": "SCR", "SD": "SDG", "SE": "SEK",
        "SG": "SGD", "SH": "SHP", "SI": "EUR", "SJ": "NOK", "SK": "EUR", "SL": "SLE", "SM": "EUR",
        "SN": "XOF", "SO": "SOS", "SR": "SRD", "SS": "SSP", "ST": "STN", "SV": "USD", "SX": "XCG",
        "SY": "SYP", "SZ": "SZL", "TC": "USD", "TD": "XAF", "TF": "EUR", "TG": "XOF", "TH": "THB",
        "TJ": "TJS", "TK": "NZD", "TL": "USD", "TM": "TMT", "TN": "TND", "TO": "TOP", "TR": "TRY",
        "TT": "TTD", "TV": "AUD", "TW": "TWD", "TZ": "TZS", "UA": "UAH", "UG": "UGX", "UM": "USD",
        "US": "USD", "UY": "UYU", "UZ": "UZS", "VA": "EUR", "VC": "XCD", "VE": "VES", "VG": "USD",
        "VI": "USD", "VN": "VND", "VU": "VUV", "WF": "XPF", "WS": "WST", "XK": "EUR", "YE": "YER",
        "YT": "EUR", "ZA": "ZAR", "ZM": "ZMW", "ZW": "ZWG",
    ]
}
